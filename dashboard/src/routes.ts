// The pages, addressed by the URL's fragment (#/messages/msg_…): the API serves one file, and a
// reload or a shared link opens the same page. The links emailed to the owner open pages too
// (#/reset/{token}, #/unlock/{token}, #/email/{token}): the token stays in the fragment, which
// no server log and no Referer sees.
export const routes = ['overview', 'messages', 'numbers', 'compliance', 'contacts', 'keys', 'webhooks', 'apps', 'security'] as const;
export type Page = (typeof routes)[number];
export const linkPages = ['reset', 'unlock', 'email'] as const;
export type LinkPage = (typeof linkPages)[number];

export interface Route {
  page: Page | LinkPage | 'signin' | 'signup';
  id?: string;
}

export function parseRoute(hash: string): Route {
  const [page, id] = hash.replace(/^#\/?/, '').split('/');
  if (page === 'signin' || page === 'signup') return {page};
  const decoded = id ? decodeURIComponent(id) : undefined;
  if ((linkPages as readonly string[]).includes(page)) return {page: page as LinkPage, id: decoded};
  if ((routes as readonly string[]).includes(page)) return {page: page as Page, id: decoded};
  return {page: 'overview'};
}

export function isLinkPage(page: Route['page']): page is LinkPage {
  return (linkPages as readonly string[]).includes(page);
}
