// A user's first script with an SDK generated from openapi.yaml (openapi-typescript types,
// openapi-fetch calls): sign up, send a TEST message, read it back. It must type-check under
// `tsc --strict` against the generated types (fields the document marks required are not
// optional) and run against the live API.
import createClient from 'openapi-fetch';
import type {paths} from './schema.js';

const api = createClient<paths>({baseUrl: process.env.API_URL});

function fail(what: string, detail: unknown): never {
  console.error(`typed client: ${what}`, detail);
  process.exit(1);
}

const email = `typed-client+${Date.now()}@example.ca`;
const signup = await api.POST('/v1/accounts', {
  body: {name: 'Typed Client Inc.', email, password: 'a long passphrase', accept_terms: true},
});
if (!signup.data) fail('signup failed', signup.error);
const testKey = signup.data.api_keys.find((key) => key.mode === 'TEST');
if (!testKey || !testKey.key) fail('no TEST key in the signup answer', signup.data);
const auth = {Authorization: `Bearer ${testKey.key}`};

const sent = await api.POST('/v1/messages', {
  headers: auth,
  body: {from: '+14165550100', to: '+15142220123', body: 'Hello from a generated client',
         skip_consent_check: true},
});
if (!sent.data) fail('send failed', sent.error);
const id: string = sent.data.id;
const mode: 'LIVE' | 'TEST' = sent.data.mode;
if (mode !== 'TEST' || sent.data.status !== 'QUEUED') fail('unexpected send answer', sent.data);

const read = await api.GET('/v1/messages/{id}', {headers: auth, params: {path: {id}}});
if (!read.data) fail('read failed', read.error);
const parts: number | null = read.data.segment_count;
if (read.data.id !== id || read.data.body !== 'Hello from a generated client' || parts !== 1)
  fail('the message read back differs', read.data);
console.log(`typed client: signed up ${signup.data.account.id}, sent and read back ${id}`);
