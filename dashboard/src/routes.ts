// The pages, addressed by the URL's fragment (#/messages/msg_…): the API serves one file, and a
// reload or a shared link opens the same page.
export const routes = ['overview', 'messages', 'numbers', 'compliance', 'contacts', 'keys', 'webhooks', 'apps'] as const;
export type Page = (typeof routes)[number];

export interface Route {
  page: Page | 'signin' | 'signup';
  id?: string;
}

export function parseRoute(hash: string): Route {
  const [page, id] = hash.replace(/^#\/?/, '').split('/');
  if (page === 'signin' || page === 'signup') return {page};
  if ((routes as readonly string[]).includes(page)) return {page: page as Page, id: id ? decodeURIComponent(id) : undefined};
  return {page: 'overview'};
}
