// Loading what a page shows, and keeping it fresh without a reload.
import {useCallback, useEffect, useRef, useState} from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

// Runs `load` now and whenever `deps` change; every `refreshMs` too when given (a live list).
// An answer that arrives after a newer call started is dropped.
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], refreshMs?: number): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    load().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (problem) => {
        if (mine !== generation.current) return;
        setError(problem);
        setLoading(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(() => {
    setLoading(true);
    run();
    if (!refreshMs) return undefined;
    const timer = window.setInterval(run, refreshMs);
    return () => window.clearInterval(timer);
  }, [run, refreshMs]);
  return {data, error, loading, reload: run};
}

// A form's submission: busy while it runs, its outcome (a message or a problem) afterwards.
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const run = useCallback(async (action: () => Promise<string | undefined | void>) => {
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      const said = await action();
      if (said) setNotice(said);
    } catch (caught) {
      setProblem(caught);
    } finally {
      setBusy(false);
    }
  }, []);
  return {busy, problem, notice, run, setNotice};
}
