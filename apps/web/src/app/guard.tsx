import { useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { forgetOrigin, getSession, getSessionEndReason, rememberOrigin, useSession } from '../lib/session.ts';

/** Private routes: no valid session → /signin, remembering the origin in router state and sessionStorage. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session) return <Outlet />;
  if (getSessionEndReason() === 'logout') {
    forgetOrigin();
    return <Navigate to="/signin" replace />;
  }
  const from = `${location.pathname}${location.search}`;
  rememberOrigin(from);
  return <Navigate to="/signin" replace state={{ from }} />;
}

/**
 * /signin and /signup/company send a signed-in user to / (doc 1 §2). Checked on arrival only: the sign-in
 * page itself navigates to the remembered origin once the new session is stored.
 */
export function RedirectSignedIn() {
  const [signedIn] = useState(() => getSession() !== null);
  return signedIn ? <Navigate to="/" replace /> : <Outlet />;
}
