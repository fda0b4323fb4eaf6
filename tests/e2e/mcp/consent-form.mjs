// The consent page's form as a person fills it: its hidden fields, its ticked boxes, the
// owner's email and password, a mode, and "approve". Shared by the SDK flow (which signs in by
// HTTP) and nothing else: the browser check fills the page itself.
export function fillConsentForm(html, { email, password, mode = 'TEST' }) {
  const unescape = (text) => text.replaceAll('&quot;', '"').replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.append(name, unescape(value));
  }
  for (const [, name, value] of html.matchAll(/name="(perm_[a-z_]+)" value="([a-z]+)" checked/g)) {
    form.append(name, value);
  }
  form.append('email', email);
  form.append('password', password);
  form.append('mode', mode);
  form.append('decision', 'approve');
  return form;
}

// A fresh account, signed up through the API as a customer would.
export async function signUpOwner(api) {
  const email = `mcp-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery staple';
  const response = await fetch(`${api}/v1/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'MCP owner', email, password, accept_terms: true }),
  });
  if (response.status !== 201) throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  const body = await response.json();
  const testKey = body.api_keys.find((key) => key.mode === 'TEST').key;
  return { email, password, testKey, accountId: body.account.id };
}

export function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
  console.log(`ok: ${what}`);
}
