import { createHash } from 'node:crypto';
import type { PopupAuthMessage } from '@bahi/contracts';

/** The popup page's only script: reads the result block and hands it to the opener. */
const POPUP_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('bahi-auth-result').textContent);
  if (window.opener) {
    window.opener.postMessage(data, location.origin);
    window.close();
  }
  var text = data.ok ? 'Signed in. You can close this window.' : 'Sign-in failed: ' + (data.error || 'unknown error');
  document.getElementById('bahi-auth-status').textContent = text;
  if (data.ok && !window.opener) location.replace('/');
})();`;

/** CSP allowing exactly the popup script (by hash) and nothing else. */
export const POPUP_CSP = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(POPUP_SCRIPT).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`;

/**
 * HTML of `/auth/popup-done`: posts `{ type: 'bahi-auth', ok, error? }` to the opener (same origin only)
 * and closes. The result travels in an inert JSON block so the script, and thus its CSP hash, is fixed.
 */
export function renderPopupDonePage(message: PopupAuthMessage): string {
  // `<` escaped so provider-supplied error text can never close the script element.
  const json = JSON.stringify(message).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bahi sign-in</title><meta name="viewport" content="width=device-width"></head>
<body>
<p id="bahi-auth-status">Finishing sign-in…</p>
<script type="application/json" id="bahi-auth-result">${json}</script>
<script>${POPUP_SCRIPT}</script>
</body>
</html>`;
}
