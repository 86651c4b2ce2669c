import { expect, test } from 'vitest';
import { isAllowedUrl, setupApp, takeGuardViolations } from './support/harness.ts';

// The harness's own guarantees: if these break, every other e2e test could pass while leaking traffic.
const app = setupApp();

test('only loopback and in-page URLs are allowed', () => {
  expect(isAllowedUrl('http://localhost:3000/api/me')).toBe(true);
  expect(isAllowedUrl('http://127.0.0.1:9/x')).toBe(true);
  expect(isAllowedUrl('http://[::1]:9/x')).toBe(true);
  expect(isAllowedUrl('data:image/png;base64,AAAA')).toBe(true);
  expect(isAllowedUrl('https://fonts.googleapis.com/css')).toBe(false);
  expect(isAllowedUrl('http://localhost.example.com/')).toBe(false);
  expect(isAllowedUrl('http://192.168.1.10/')).toBe(false);
});

test('a request to another host is blocked and recorded; so is an uncaught page error', async () => {
  const page = await app.newPage();
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  const seen: string[] = [];
  const collect = () => {
    seen.push(...takeGuardViolations(page));
    return seen.join('\n');
  };

  // An image, because the app's CSP allows https: images (avatars) while it already blocks fetch().
  const loaded = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(true);
        img.onerror = () => resolve(false);
        img.src = 'https://lh3.googleusercontent.com/a/avatar.png';
      }),
  );
  expect(loaded).toBe(false);
  await expect
    .poll(collect, { timeout: 5_000 })
    .toMatch(/non-loopback host: https:\/\/lh3\.googleusercontent\.com/);

  // A throw inside a timer is uncaught: exactly what `pageerror` reports.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('boom from the harness self-test');
    }, 0);
  });
  await expect
    .poll(collect, { timeout: 5_000 })
    .toMatch(/uncaught page error .*boom from the harness self-test/);
});
