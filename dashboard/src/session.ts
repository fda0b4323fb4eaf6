// Who is signed in, in which mode: what every page reads.
import {createContext} from 'preact';
import {useContext} from 'preact/hooks';
import type {components} from './api/schema';
import type {Mode} from './api/client';

export type AccountDocument = components['schemas']['AccountDocument'];

export interface SessionState {
  accountId: string;
  document: AccountDocument;
  mode: Mode;
  refreshAccount: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
