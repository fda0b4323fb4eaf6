// The consent page in a real browser (Debian's chromium, driven by playwright-core), with
// JavaScript off: it renders in English and French by the browser's language, signing in and
// approving sends the browser back to the client with a code the token endpoint accepts, and
// another site cannot frame it. Screenshots go to the folder given (default: the working
// folder). Needs API_URL.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { check, signUpOwner } from './consent-form.mjs';

const api = process.env.API_URL;
if (!api) throw new Error('API_URL is not set');
const out = path.resolve(process.argv[2] ?? '.');
mkdirSync(out, { recursive: true });
const redirectUri = 'http://127.0.0.1:9/callback';

async function register() {
  const response = await fetch(`${api}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser check', redirect_uris: [redirectUri] }),
  });
  return (await response.json()).client_id;
}

function authorizationUrl(clientId, verifier, state) {
  const url = new URL(`${api}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    scope: 'messages:rw compliance:r',
  }).toString();
  return url;
}

const owner = await signUpOwner(api);
const clientId = await register();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  for (const [locale, heading, approve] of [
    ['en-CA', 'Connect an app to your SMS gateway account', 'Approve'],
    ['fr-CA', 'Connecter une application à votre compte de passerelle SMS', 'Approuver'],
  ]) {
    const context = await browser.newContext({ locale, javaScriptEnabled: false });
    const page = await context.newPage();
    // The client's redirect URI: the browser must land here, with the code.
    let landed;
    await page.route(`${redirectUri}**`, (route) => {
      landed = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the app' });
    });
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const response = await page.goto(authorizationUrl(clientId, verifier, state).toString());
    check(response.status() === 200, `${locale}: the page answers 200`);
    check(response.headers()['x-frame-options'] === 'DENY', `${locale}: X-Frame-Options DENY`);
    check((await page.textContent('h1')) === heading, `${locale}: the heading is "${heading}"`);
    check(await page.isChecked('input[name="perm_messages"]'), `${locale}: asked permissions are ticked`);
    await page.fill('input[name="email"]', owner.email);
    await page.fill('input[name="password"]', owner.password);
    const shot = path.join(out, `consent-${locale}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);
    await page.click(`button[value="approve"]`);
    await page.waitForURL(`${redirectUri}**`);
    check(landed?.searchParams.get('state') === state, `${locale}: back at the client with the state`);
    const tokens = await fetch(`${api}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: landed.searchParams.get('code'),
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
      }).toString(),
    });
    const body = await tokens.json();
    check(tokens.status === 200 && body.scope === 'compliance:r messages:rw',
      `${locale}: the code buys a token (scope "${body.scope}")`);
    await context.close();
  }

  // Framed by another site, the page does not render (X-Frame-Options and CSP frame-ancestors);
  // the metadata document, which sets neither, does: the check can tell the two apart. The
  // framing site is another origin on this machine, a server of this script's own (chromium
  // keeps pages it cannot place off local addresses).
  const framing = http.createServer((request, response) => {
    const src = new URL(request.url, 'http://x').searchParams.get('src') ?? '';
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<iframe src="${src.replaceAll('"', '&quot;')}"></iframe>`);
  });
  await new Promise((resolve) => framing.listen(0, '127.0.0.1', resolve));
  const framedText = async (src) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://localhost:${framing.address().port}/?src=${encodeURIComponent(src)}`);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame?.waitForLoadState().catch(() => {});
    const text = frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '';
    await context.close();
    return text;
  };
  check((await framedText(`${api}/.well-known/oauth-authorization-server`)).includes('issuer'),
    'a page without frame protection shows in a frame (the control)');
  check(!(await framedText(authorizationUrl(clientId, 'x'.repeat(43), 's').toString())).includes('Approve'),
    'another site cannot show the consent page in a frame');
  framing.close();
} finally {
  await browser.close();
}
console.log('PASS');
