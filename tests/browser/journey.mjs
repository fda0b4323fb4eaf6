// A customer's whole journey through the dashboard in Debian's Chromium (playwright-core), once
// in English and once in French, as the browser's language picks: sign up, sign in, verify the
// owner phone (the code read from the carrier simulator), top up, register a webhook, buy a
// number, import consents from a CSV file, send a LIVE message and watch it become DELIVERED
// without reloading, see its webhook attempts, broadcast to a group, rotate a key, set the
// sender name, see the open sessions, change the password (the other session then refused),
// release the number, sign out (the old session's cookies then refused by the API); then, in
// other browsers, reset a forgotten password by the emailed link, and get past a stranger's lock
// by an emailed unlock link. On every page: axe-core finds no serious or critical violation,
// nothing breaks the Content-Security-Policy, and the page fits a phone's width. Prints each
// step as the browser saw it.
// Usage: node journey.mjs [SCREENSHOT_DIR]. Needs API_URL, SIM_URL and MAIL_DROP_DIR (the
// stack's inbox, where the emailed links are read).
import {mkdirSync, readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {chromium} from 'playwright-core';

const api = process.env.API_URL;
const sim = process.env.SIM_URL;
const mailDrop = process.env.MAIL_DROP_DIR;
if (!api || !sim || !mailDrop) throw new Error('API_URL, SIM_URL and MAIL_DROP_DIR must be set');
const shots = process.argv[2] ? path.resolve(process.argv[2]) : null;
if (shots) mkdirSync(shots, {recursive: true});
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = {width: 390, height: 844};
const DESKTOP = {width: 1280, height: 900};
const PAGES = ['overview', 'messages', 'numbers', 'compliance', 'contacts', 'keys', 'webhooks', 'apps', 'security'];

// What the journey checks in each language's own words and formats.
const WORDS = {
  'en-CA': {overview: 'Overview', balance: '$20.00', live: 'LIVE mode', test: 'TEST mode', parts: '1 part(s)', verified: 'Verified', signIn: 'Sign in'},
  'fr-CA': {overview: 'Aperçu', balance: '20,00 $', live: 'Mode RÉEL', test: 'Mode TEST', parts: '1 partie(s)', verified: 'Vérifié', signIn: 'Connexion'},
};

const failures = [];
function check(condition, what) {
  if (!condition) failures.push(what);
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
}

// A number no check refuses: exchanges 220-299 are neither N11, 555 nor 958/959, which the API
// refuses as reserved destinations (domain/destinations.cpp).
function randomNumber(areaCode) {
  return `+1${areaCode}${220 + Math.floor(Math.random() * 80)}${randomDigits(4)}`;
}

function randomDigits(n) {
  return Array.from({length: n}, () => Math.floor(Math.random() * 10)).join('');
}

async function ownerCode(phone) {
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${sim}/sim/messages?to=${encodeURIComponent(phone)}`);
    const texts = (await response.json()).data ?? [];
    const code = texts.map((m) => /\b(\d{6})\b/.exec(m.text ?? '')?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no owner code reached ${phone}`);
}

// The newest link to the dashboard page `kind` (reset, unlock, email) mailed to `to`, from the
// stack's inbox (one file per email, named by the time it was written).
async function mailedLink(to, kind) {
  const pattern = new RegExp(`(https?://[^\\s]+/dashboard/#/${kind}/[A-Za-z0-9]+)`);
  for (let i = 0; i < 100; i++) {
    const files = readdirSync(mailDrop).filter((name) => name.endsWith('.eml')).sort().reverse();
    for (const name of files) {
      const text = readFileSync(path.join(mailDrop, name), 'utf8');
      if (!text.startsWith(`To: ${to}\n`)) continue;
      const link = pattern.exec(text)?.[1];
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${kind} link was mailed to ${to}`);
}

// axe-core's serious and critical findings on the page as it stands (evaluated through the
// DevTools protocol, so the page's CSP needs no exception for it).
async function accessibility(page, label) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, {resultTypes: ['violations']}));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  check(serious.length === 0,
        `axe on ${label}: ${result.violations.length} violations, ${serious.length} serious or critical` +
        (result.violations.length ? ` (${result.violations.map((v) => `${v.id} ${v.impact}: ${v.nodes.length}`).join(', ')})` : ''));
  return {violations: result.violations.map((v) => `${v.id} ${v.impact}`), serious: serious.length};
}

async function fitsAPhone(page, label) {
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `${label} fits a 390 px wide phone (overflow ${overflow} px)`);
  await page.setViewportSize(DESKTOP);
}

async function visit(page, name, locale, audit) {
  await page.goto(`${api}/dashboard/#/${name}`);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  const label = `${name} (${locale})`;
  audit[label] = await accessibility(page, label);
  await fitsAPhone(page, label);
  if (shots && locale === 'en-CA') await page.screenshot({path: path.join(shots, `dashboard-${name}.png`), fullPage: true});
  if (shots && locale === 'fr-CA' && name === 'overview')
    await page.screenshot({path: path.join(shots, `dashboard-${name}-fr.png`), fullPage: true});
}

async function journey(browser, locale) {
  const words = WORDS[locale];
  const context = await browser.newContext({locale, viewport: DESKTOP});
  const page = await context.newPage();
  const cspViolations = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('dialog', (dialog) => dialog.accept());
  const audit = {};
  const email = `browser+${Date.now()}${randomDigits(4)}@example.ca`;
  const password = 'a long passphrase';
  console.log(`-- ${locale}: ${email}`);

  // Sign up (which signs in), sign out, and sign in with the form.
  await page.goto(`${api}/dashboard/#/signup`);
  audit[`sign-up (${locale})`] = await accessibility(page, `sign-up (${locale})`);
  await page.fill('input[name=name]', locale === 'fr-CA' ? 'Érablière Tremblay' : 'Maple Bakery');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.check('input[name=accept_terms]');
  await page.click('[data-testid=sign-up]');
  await page.locator('h1', {hasText: words.overview}).waitFor();
  check(true, 'signed up: the overview shows, in the browser\'s language');
  await page.click('[data-testid=sign-out]');
  await page.locator('input[name=email]').waitFor();
  audit[`sign-in (${locale})`] = await accessibility(page, `sign-in (${locale})`);
  await fitsAPhone(page, `sign-in (${locale})`);
  if (shots && locale === 'en-CA') await page.screenshot({path: path.join(shots, 'dashboard-sign-in.png')});
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'not the passphrase');
  await page.click('[data-testid=sign-in]');
  await page.locator('[role=alert]').waitFor();
  check(true, 'a wrong password is refused on the form');
  await page.fill('input[name=password]', password);
  await page.click('[data-testid=sign-in]');
  await page.locator('h1', {hasText: words.overview}).waitFor();
  const cookies = await context.cookies(`${api}/v1/accounts/me`);
  const sessionCookie = cookies.find((c) => c.name === 'smsgw_live');
  check(sessionCookie?.httpOnly && sessionCookie?.sameSite === 'Strict', 'the session cookie is HttpOnly and SameSite=Strict');
  check(await page.evaluate(() => localStorage.length === 0 && !document.cookie.includes('mk_')),
        'the page\'s script sees no key: nothing in localStorage, no key in document.cookie');
  check((await page.textContent('[data-testid=mode-banner]')).includes(words.test), 'TEST mode is shown first');

  // The owner phone, verified with the code the simulator received.
  const owner = randomNumber(416);
  await page.fill('input[name=owner_phone]', owner);
  await page.click('[data-testid=send-code]');
  await page.locator('input[name=code]').waitFor();
  await page.fill('input[name=code]', await ownerCode(owner));
  await page.click('[data-testid=confirm-code]');
  await page.locator('[data-testid=owner-phone]').waitFor();
  check((await page.textContent('[data-testid=owner-phone]')).includes(words.verified), `owner phone ${owner} verified`);

  // A $20 top-up with the sandbox card, shown in the locale's format.
  await page.fill('input[name=amount]', locale === 'fr-CA' ? '20,00' : '20.00');
  await page.click('[data-testid=top-up]');
  await page.locator('[data-testid=balance]', {hasText: words.balance}).waitFor();
  check(true, `topped up: the balance reads ${words.balance}`);
  await visit(page, 'overview', locale, audit);

  // LIVE from here on.
  await page.click('[data-testid=mode-switch]');
  await page.locator('[data-testid=mode-banner]', {hasText: words.live}).waitFor();
  check(true, 'switched to LIVE: the banner says so');

  // A webhook endpoint: the simulator's inbox accepts deliveries.
  await page.goto(`${api}/dashboard/#/webhooks`);
  await page.fill('input[name=url]', `${sim}/sim/webhook-inbox`);
  await page.fill('input[name=password]', password);  // an endpoint outlives the session
  await page.click('[data-testid=add-webhook]');
  await page.locator('[data-testid=secret]').waitFor();
  check((await page.textContent('[data-testid=secret]')).length > 10, 'webhook added: its signing secret is shown once');

  // A number in 416.
  await page.goto(`${api}/dashboard/#/numbers`);
  await page.fill('input[name=area_code]', '416');
  await page.click('[data-testid=search-numbers]');
  await page.locator('[data-testid=buy]').first().click();
  const owned = page.locator('[data-testid=owned-number][data-status=ACTIVE]');
  await owned.first().waitFor();
  const number = await owned.first().getAttribute('data-number');
  check(/^\+1416\d{7}$/.test(number), `bought ${number}`);
  await visit(page, 'numbers', locale, audit);

  // Consents from a CSV file, attested; the batch says where it came from.
  const recipient = randomNumber(514);
  await page.goto(`${api}/dashboard/#/compliance`);
  await page.setInputFiles('input[name=consent_csv]', {
    name: 'consents.csv', mimeType: 'text/csv',
    buffer: Buffer.from(`phone_number\n${recipient}\nnot a number\n`),
  });
  await page.fill('input[name=source_description]', 'Signed at the counter');
  await page.check('input[name=attested]');
  await page.click('[data-testid=import]');
  const batch = page.locator('[data-testid=batch-result]');
  await batch.waitFor();
  const recorded = await batch.locator('[data-count=recorded]').textContent();
  const invalid = await batch.locator('[data-count=invalid]').textContent();
  check(recorded === '1' && invalid === '1' && (await batch.getAttribute('data-source')) === 'dashboard',
        `imported consents: recorded ${recorded}, invalid ${invalid}, source ${await batch.getAttribute('data-source')}`);
  await visit(page, 'compliance', locale, audit);

  // A LIVE message: its parts and cost shown before sending, then DELIVERED without a reload.
  await page.goto(`${api}/dashboard/#/messages`);
  await page.fill('input[name=to]', recipient);
  await page.fill('[data-testid=compose-body]', locale === 'fr-CA' ? 'Vos croissants sont prêts.' : 'Your bread is ready.');
  const preview = await page.locator('.compose .hint').textContent();
  check(preview.includes(words.parts), `before sending: "${preview}"`);
  await page.click('[data-testid=send]');
  const row = page.locator('[data-testid=message-row]').first();
  await Promise.race([row.waitFor(), page.locator('[role=alert]').waitFor()]);
  if (await page.locator('[role=alert]').count()) throw new Error(`the send was refused: ${await page.textContent('[role=alert]')}`);
  const messageId = await row.getAttribute('data-id');
  const navigations = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
  await page.locator(`[data-testid=message-row][data-id="${messageId}"][data-status=DELIVERED]`).waitFor({timeout: 30000});
  check(navigations.length === 0, `${messageId} became DELIVERED in the list without a reload`);
  await visit(page, 'messages', locale, audit);
  await page.goto(`${api}/dashboard/#/messages/${messageId}`);
  await page.locator('[data-testid=message-status]').waitFor();
  check((await page.textContent('[data-testid=message-parts]')) === '1', 'its timeline shows 1 part, as the preview said');

  // Its webhook attempts.
  await page.goto(`${api}/dashboard/#/webhooks`);
  await page.locator('[data-testid=show-attempts]').first().click();
  await page.locator('[data-testid=attempt][data-event="message.delivered"][data-success=true]').first().waitFor({timeout: 30000});
  check(true, 'message.delivered reached the endpoint: the attempt shows with its status');
  await visit(page, 'webhooks', locale, audit);

  // A group broadcast: the recipient as a contact, in a group, and each member's result.
  await page.goto(`${api}/dashboard/#/contacts`);
  await page.fill('input[name=contact_name]', 'Zoé');
  await page.fill('input[name=contact_phone]', recipient);
  await page.click('[data-testid=add-contact]');
  await page.locator('[data-testid=contact-row]').first().waitFor();
  await page.fill('input[name=group_name]', locale === 'fr-CA' ? 'Habitués' : 'Regulars');
  await page.click('[data-testid=new-group]');
  await page.locator('[data-testid=add-member]').click();
  await page.locator('[data-testid=group-row][data-members="1"]').waitFor();
  await page.fill('[data-testid=broadcast-body]', locale === 'fr-CA' ? 'Fermé lundi.' : 'Closed on Monday.');
  await page.click('[data-testid=broadcast]');
  const member = page.locator('[data-testid=broadcast-result]').first();
  await member.waitFor();
  check((await member.getAttribute('data-status')) === 'queued', `broadcast to the group: its member's result is ${await member.getAttribute('data-status')}`);
  await visit(page, 'contacts', locale, audit);

  // Rotate the LIVE key, with the password (a session's step-up).
  await page.goto(`${api}/dashboard/#/keys`);
  await page.locator('[data-testid=key-row]').first().waitFor();
  await page.fill('input[name=password]', password);
  await page.locator('[data-testid=rotate]').first().click();
  await page.locator('[data-testid=secret]').waitFor();
  check((await page.textContent('[data-testid=secret]')).startsWith('mk_live_'), 'rotated the LIVE key: the new secret shown once');
  await visit(page, 'keys', locale, audit);

  // Security: the sender name, the open sessions (a second one, opened by a script), and a new
  // password, which ends that other session and keeps this one.
  const other = await fetch(`${api}/v1/sessions`, {
    method: 'POST', headers: {'Content-Type': 'application/json', 'User-Agent': 'Another browser/1.0'},
    body: JSON.stringify({email, password}),
  });
  const otherCookies = (other.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  await page.goto(`${api}/dashboard/#/security`);
  await page.fill('input[name=sender_name]', locale === 'fr-CA' ? 'Érablière Tremblay' : 'Maple Bakery');
  await page.click('[data-testid=save-sender-name]');
  await page.locator('.notice.success').first().waitFor();
  await page.locator('[data-testid=session-row]').nth(1).waitFor();
  check(await page.locator('[data-testid=session-row]').count() === 2, 'security: both open sessions are listed');
  await visit(page, 'security', locale, audit);
  const newPassword = 'a newer passphrase';
  await page.fill('input[name=current_password]', password);
  await page.fill('input[name=new_password]', newPassword);
  await page.click('[data-testid=change-password]');
  await page.locator('.notice.success', {hasText: locale === 'fr-CA' ? 'Mot de passe changé' : 'Password changed'}).waitFor();
  const otherAfter = await fetch(`${api}/v1/accounts/me`, {headers: {Cookie: otherCookies}});
  check(otherAfter.status === 401, `password changed: the other session answers ${otherAfter.status}`);
  const me = await page.evaluate(async () => (await fetch('/v1/accounts/me', {headers: {'X-Dashboard-Mode': 'LIVE'}})).status);
  check(me === 200, 'and this session stays signed in');

  // The pages the journey did not act on.
  for (const name of PAGES.filter((p) => !['overview', 'numbers', 'compliance', 'messages', 'webhooks', 'contacts', 'keys', 'security'].includes(p)))
    await visit(page, name, locale, audit);

  // Release the number.
  await page.goto(`${api}/dashboard/#/numbers`);
  await page.locator('[data-testid=release]').first().click();
  await page.locator(`[data-testid=owned-number][data-number="${number}"]`).waitFor({state: 'detached'});
  check(true, `released ${number}: it left the list of numbers held`);

  // Sign out: the session's keys end on the server, not only in this browser.
  await page.click('[data-testid=sign-out]');
  await page.locator('input[name=email]').waitFor();
  const cookieHeader = cookies.filter((c) => c.name !== 'smsgw_csrf').map((c) => `${c.name}=${c.value}`).join('; ');
  const after = await fetch(`${api}/v1/accounts/me`, {headers: {Cookie: cookieHeader}});
  const body = await after.json();
  check(after.status === 401 && body.code === 'API_KEY_REVOKED', `after sign-out the old cookies answer ${after.status} ${body.code}`);
  check(cspViolations.length === 0, `no Content-Security-Policy violation (${cspViolations.length})`);
  await context.close();
  await forgottenPassword(browser, locale, email, audit);
  await strangersLock(browser, locale, email, audit);
  return audit;
}

// From the page an emailed link opened: on to sign-in, and signed in.
async function signInFromALink(page, email, password, words) {
  await page.click('[data-testid=to-sign-in]');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('[data-testid=sign-in]');
  await page.locator('h1', {hasText: words.overview}).waitFor();
}

// A new browser: "Forgot your password?", the emailed link, a new password, then sign-in.
async function forgottenPassword(browser, locale, email, audit) {
  const words = WORDS[locale];
  const context = await browser.newContext({locale, viewport: DESKTOP});
  const page = await context.newPage();
  await page.goto(`${api}/dashboard/#/signin`);
  await page.click('[data-testid=forgot]');
  await page.fill('input[name=email]', email);
  await page.click('[data-testid=send-reset]');
  await page.locator('.notice.success').waitFor();
  await page.goto(await mailedLink(email, 'reset'));
  await page.locator('input[name=new_password]').waitFor();
  audit[`reset (${locale})`] = await accessibility(page, `reset (${locale})`);
  await fitsAPhone(page, `reset (${locale})`);
  if (shots && locale === 'en-CA') await page.screenshot({path: path.join(shots, 'dashboard-reset.png')});
  await page.fill('input[name=new_password]', 'a reset passphrase');
  await page.click('[data-testid=set-password]');
  await page.locator('.notice.success').waitFor();
  await signInFromALink(page, email, 'a reset passphrase', words);
  check(true, 'reset by the emailed link: signed in with the new password');
  await context.close();
}

// A stranger's wrong passwords lock the email; the owner, on a browser never used, gets an
// emailed unlock link that proves it, and signs in while the stranger stays locked out.
async function strangersLock(browser, locale, email, audit) {
  const words = WORDS[locale];
  for (let i = 0; i < 6; i++) {
    await fetch(`${api}/v1/sessions`, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                       body: JSON.stringify({email, password: `a stranger's guess ${i}`})});
  }
  const context = await browser.newContext({locale, viewport: DESKTOP});
  const page = await context.newPage();
  await page.goto(`${api}/dashboard/#/signin`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'a reset passphrase');
  await page.click('[data-testid=sign-in]');
  await page.locator('[data-testid=send-unlock]').waitFor();
  audit[`locked (${locale})`] = await accessibility(page, `locked (${locale})`);
  if (shots && locale === 'en-CA') await page.screenshot({path: path.join(shots, 'dashboard-locked.png')});
  check(true, 'locked by a stranger: the page offers an emailed unlock link');
  await page.click('[data-testid=send-unlock]');
  await page.locator('.notice.success').waitFor();
  await page.goto(await mailedLink(email, 'unlock'));
  await page.locator('[data-testid=to-sign-in]').waitFor();
  await page.locator('.notice.success').waitFor();
  await signInFromALink(page, email, 'a reset passphrase', words);
  check(true, 'the unlock link proved this browser: signed in despite the stranger\'s lock');
  await context.close();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  for (const locale of ['en-CA', 'fr-CA']) {
    const audit = await journey(browser, locale);
    console.log(`axe (${locale}): ${JSON.stringify(audit)}`);
  }
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`\n${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('\nthe journey passed in English and French');
