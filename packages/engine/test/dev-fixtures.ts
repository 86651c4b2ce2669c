// The synthetic dev-corpus documents the engine's tests read (test/fixtures/dev, copied from
// shared/corpus/dev with their truth and the e-invoice test key; see its README). They live in the
// repository so `npm test` passes in a clone with nothing beside it; scoring the whole corpus
// stays in dev/ and bench/.
export const devFixtures = new URL('./fixtures/dev/', import.meta.url);
