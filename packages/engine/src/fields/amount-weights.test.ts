import { toPaise } from '@bahi/india';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_SCORE,
  PAISA_TOLERANCE,
  percentOf,
  rupeesOf,
  SOLVER_BONUS,
  WORDS_AGREE_BONUS,
} from './amount-weights.ts';

describe('amount weights', () => {
  it('takes a percent of an amount and turns paise back into rupees', () => {
    expect(percentOf(1500, 18)).toBe(270);
    expect(percentOf(2000, 2.5)).toBe(50);
    expect(rupeesOf(toPaise(4567.89))).toBe(4567.89);
  });

  it('tells a paisa apart from two', () => {
    expect(Math.abs(100.01 - 100) <= PAISA_TOLERANCE).toBe(true);
    expect(Math.abs(100.02 - 100) <= PAISA_TOLERANCE).toBe(false);
  });

  it('lets a set that adds up with tax beat any set that does not', () => {
    // Seven readings at the best score, a total the words state, and every tie-breaker.
    const bestScores =
      7 * AMOUNT_SCORE.labelFirst +
      WORDS_AGREE_BONUS.sameFigure +
      SOLVER_BONUS.equalHalves +
      SOLVER_BONUS.largestTotal;
    expect(SOLVER_BONUS.addsUpUntaxed).toBeLessThan(SOLVER_BONUS.addsUpTaxed);
    expect(bestScores + SOLVER_BONUS.taxableIsLineSum).toBeLessThan(SOLVER_BONUS.addsUpTaxed);
  });
});
