// The public API, through the client generated from openapi.yaml (openapi-typescript types,
// openapi-fetch calls): the dashboard can do nothing a customer's script cannot. The session's
// keys ride in HttpOnly cookies the page never sees; each call names the mode it acts in and,
// when it may change something, carries the CSRF token (docs/dashboard.md).
import createClient, {type Middleware} from 'openapi-fetch';
import type {components, paths} from './schema';

export type Mode = 'LIVE' | 'TEST';

let currentMode: Mode = 'TEST';
let currentLanguage = 'en';

export function setMode(mode: Mode) {
  currentMode = mode;
}
export function setLanguage(language: string) {
  currentLanguage = language;
}

function cookie(name: string): string {
  const pair = document.cookie.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name}=`));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : '';
}

export function signedInHere(): boolean {
  return cookie('smsgw_csrf') !== '';
}

const session: Middleware = {
  onRequest({request}) {
    // A call may name its mode itself (money is always LIVE's); the others act in the page's.
    if (!request.headers.has('X-Dashboard-Mode')) request.headers.set('X-Dashboard-Mode', currentMode);
    request.headers.set('Accept-Language', currentLanguage);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      request.headers.set('X-CSRF-Token', cookie('smsgw_csrf'));
    }
    return request;
  },
};

export const api = createClient<paths>({baseUrl: window.location.origin, credentials: 'same-origin'});
api.use(session);

// An answer the API refused: its code, its text in the page's language, and its details.
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

// An error answer as the contract writes it (openapi.yaml, Error), read defensively: a proxy's
// or a crashed server's answer carries none of it.
type ErrorBody = Partial<components['schemas']['Error']>;

// The details a page reads: the error's own object (a validation array names fields instead).
function detailsObject(details: unknown): Record<string, unknown> | null {
  return details !== null && typeof details === 'object' && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : null;
}

// The data of a call, or an ApiProblem carrying the API's own error.
export async function ok<T>(call: Promise<{data?: T; error?: unknown; response: Response}>): Promise<T> {
  const {data, error, response} = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as ErrorBody;
  throw new ApiProblem(response.status, body.code ?? String(response.status), body.message ?? response.statusText,
                       detailsObject(body.details));
}

// A session that ended (signed out elsewhere, expired) answers 401: the page goes back to the
// sign-in form instead of showing errors.
api.use({
  onResponse({request, response}) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/v1/sessions')) {
      window.dispatchEvent(new Event('session-ended'));
    }
    return response;
  },
});

// A fresh Idempotency-Key for an operation that moves money or sends: a retried click is
// answered with the first attempt's result instead of acting twice.
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
