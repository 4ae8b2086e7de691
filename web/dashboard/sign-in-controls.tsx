/**
 * The header's sign-in: "Sign in" when the server offers it and nobody is
 * signed in; who is signed in (the server's principal, with its groups) and
 * "Sign out" when somebody is. The way back from the provider is finished
 * here when the page loads.
 */
import { useEffect, useMemo, useState } from 'react';
import { onReadRefused } from './api';
import { replaceUrl, useSignedIn, useViewer } from './hooks';
import {
  describeSignInError,
  finishSignIn,
  isSignInReturn,
  signInSettings,
  signOut,
  startSignIn,
  type SignInSettings,
} from './sign-in';
import { isSignedIn, onSignInExpired } from './token';

export interface SignIn {
  /** The server's sign-in settings, or null when it offers none. */
  readonly settings: SignInSettings | null;
  /** Whether the way back from the provider is being finished (the code exchanged). */
  readonly finishing: boolean;
  /** Why the last sign-in failed or ended, if it did (a sentence). */
  readonly error: string | null;
  readonly setError: (error: string | null) => void;
}

/** The sign-in's state, finishing a sign-in the provider has just sent the browser back from. */
export function useSignIn(): SignIn {
  const settings = useMemo(signInSettings, []);
  const [finishing, setFinishing] = useState(() => settings !== null && isSignInReturn());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!settings || !isSignInReturn()) return;
    finishSignIn(settings, replaceUrl).then(
      () => setFinishing(false),
      (failure: unknown) => {
        setFinishing(false);
        setError(`Sign-in failed: ${describeSignInError(failure)}.`);
      },
    );
  }, [settings]);
  // A sign-in ends when its token expires, or when the server no longer takes it: the page says so.
  useEffect(() => {
    const stopExpiry = onSignInExpired(() => setError('Your sign-in expired: sign in again to make changes.'));
    const stopRefused = onReadRefused((refusal) => {
      if (!isSignedIn()) return;
      signOut();
      setError(`The server no longer accepts your sign-in (${refusal.message}): sign in again.`);
    });
    return () => {
      stopExpiry();
      stopRefused();
    };
  }, []);
  return { settings, finishing, error, setError };
}

export function SignInControls({ signIn }: { signIn: SignIn }) {
  const signedIn = useSignedIn();
  const who = useViewer().who;
  const [leaving, setLeaving] = useState(false);
  if (!signIn.settings) return null;
  const settings = signIn.settings;
  if (!signedIn) {
    const go = () => {
      setLeaving(true);
      signIn.setError(null);
      startSignIn(settings).catch((failure: unknown) => {
        setLeaving(false);
        signIn.setError(`Sign-in failed: ${describeSignInError(failure)}.`);
      });
    };
    return (
      <button type="button" className="sign-in" disabled={leaving || signIn.finishing} onClick={go}>
        {leaving || signIn.finishing ? 'Signing in…' : 'Sign in'}
      </button>
    );
  }
  const principal = who.state === 'known' ? who.principal : null;
  const groups = who.state === 'known' && who.groups.length > 0 ? `Groups: ${who.groups.join(', ')}` : 'No groups';
  return (
    <span className="signed-in">
      <span className="who" title={groups}>
        Signed in as <strong className="principal">{principal ?? '…'}</strong>
        <span className="visually-hidden">. {groups}</span>
      </span>
      <button type="button" className="small" onClick={signOut}>
        Sign out
      </button>
    </span>
  );
}
