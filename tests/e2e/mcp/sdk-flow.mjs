// The whole OAuth and MCP flow driven by an off-the-shelf client, the MCP TypeScript SDK:
// discovery from the 401, dynamic registration, PKCE (the owner signs in on the consent page,
// here by HTTP), the token, the tools, a TEST send; then the owner revokes the key and the
// next call fails. Prints each request and answer the SDK made. Needs API_URL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { check, fillConsentForm, signUpOwner } from './consent-form.mjs';

const api = process.env.API_URL;
if (!api) throw new Error('API_URL is not set');

// Every request the SDK makes, as it makes it.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init = {}) => {
  const response = await realFetch(input, init);
  const url = typeof input === 'string' ? input : (input.href ?? input.url);
  console.log(`  ${init.method ?? 'GET'} ${url.replace(/code=[^&]+/, 'code=…')} -> ${response.status}`);
  return response;
};

class OwnerInTheLoop {
  constructor() { this.stored = {}; }
  get redirectUrl() { return 'http://127.0.0.1:9/callback'; }
  get clientMetadata() {
    return {
      client_name: 'MCP SDK e2e',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.stored.client; }
  saveClientInformation(client) { this.stored.client = client; }
  tokens() { return this.stored.tokens; }
  saveTokens(tokens) { this.stored.tokens = tokens; }
  redirectToAuthorization(url) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier) { this.stored.verifier = verifier; }
  codeVerifier() { return this.stored.verifier; }
}

// The owner opens the page the SDK wanted to show, signs in and approves.
async function approveAsOwner(url, owner) {
  const page = await realFetch(url, { redirect: 'manual' });
  check(page.status === 200, `the consent page answers 200 (${page.status} ${page.headers.get('location')})`);
  check(page.headers.get('x-frame-options') === 'DENY', 'the consent page cannot be framed');
  const cookie = page.headers.get('set-cookie').split(';')[0];
  const form = fillConsentForm(await page.text(), owner);
  const answer = await realFetch(`${api}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: form.toString(),
  });
  check(answer.status === 303, `approval redirects back to the client (${answer.status})`);
  const back = new URL(answer.headers.get('location'));
  check(back.searchParams.get('state') === url.searchParams.get('state'), 'the state comes back');
  return back.searchParams.get('code');
}

const owner = await signUpOwner(api);
const endpoint = new URL(`${api}/mcp`);
const provider = new OwnerInTheLoop();

console.log('1. connect without a token: the SDK discovers, registers and asks for authorization');
let transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
let client = new Client({ name: 'smsgw-e2e', version: '1.0.0' });
let unauthorized = false;
try {
  await client.connect(transport);
} catch (error) {
  unauthorized = error instanceof UnauthorizedError;
  if (!unauthorized) throw error;
}
check(unauthorized, 'the first connection needs authorization');
check(provider.stored.client?.client_id?.startsWith('dcr_'), `registered as ${provider.stored.client?.client_id}`);
check(provider.authorizationUrl.searchParams.get('code_challenge_method') === 'S256', 'PKCE S256');
check(provider.authorizationUrl.searchParams.get('resource') === `${endpoint}`, 'the resource is the MCP endpoint');

console.log('2. the owner approves on the consent page; the SDK trades the code');
const code = await approveAsOwner(provider.authorizationUrl, owner);
await transport.finishAuth(code);
check(provider.stored.tokens?.access_token?.startsWith('mk_test_'), 'a TEST access token');
check(typeof provider.stored.tokens?.refresh_token === 'string', 'a refresh token');

console.log('3. connect with the token, list the tools, send a TEST message');
transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
client = new Client({ name: 'smsgw-e2e', version: '1.0.0' });
await client.connect(transport);
const { tools } = await client.listTools();
console.log(`  tools: ${tools.map((tool) => tool.name).join(', ')}`);
check(tools.length === 12, '12 tools');
check(tools.find((tool) => tool.name === 'send_sms').description.includes('cents CAD'), 'send_sms says what it costs');
const to = '+14162220123';
const from = '+14165550100';
const consent = await client.callTool({
  name: 'record_consent',
  arguments: { phone_number: to, consent_type: 'express', source_description: 'e2e sign-up form' },
});
check(!consent.isError, 'consent recorded');
const sent = await client.callTool({ name: 'send_sms', arguments: { from, to, body: 'Hello from an agent' } });
check(!sent.isError, `send_sms: ${JSON.stringify(sent.structuredContent).slice(0, 160)}`);
check(sent.structuredContent.mode === 'TEST', 'the message is a TEST message');
const read = await client.callTool({ name: 'get_message', arguments: { id: sent.structuredContent.id } });
check(read.structuredContent.id === sent.structuredContent.id, 'get_message reads it back');

const balance = await client.callTool({ name: 'get_balance', arguments: {} });
const me = balance.structuredContent;
check(me.caller.oauth_client?.name === 'MCP SDK e2e', `caller.oauth_client is ${JSON.stringify(me.caller.oauth_client)}`);
const rest = await realFetch(`${api}/v1/accounts/me`, {
  headers: { authorization: `Bearer ${provider.stored.tokens.access_token}` },
});
check(rest.status === 401, 'the token, approved for the MCP endpoint, is refused by the REST API');

console.log('4. the owner revokes the key; the next call fails');
const revoked = await realFetch(`${api}/v1/api-keys/${me.caller.key_id}`, {
  method: 'DELETE',
  headers: { authorization: `Bearer ${owner.testKey}` },
});
check(revoked.status === 204, 'DELETE /v1/api-keys/{id} answers 204');
let failed = false;
try {
  const after = await client.callTool({ name: 'get_balance', arguments: {} });
  failed = after.isError === true;
} catch (error) {
  failed = true;
  console.log(`  the call failed: ${error.constructor.name}: ${error.message.slice(0, 120)}`);
}
check(failed, 'a call after revocation fails');
await client.close().catch(() => {});
console.log('PASS');
