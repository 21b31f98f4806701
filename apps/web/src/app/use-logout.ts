import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../features/auth/index.ts';
import { clearDomainState } from '../lib/domain-store.ts';
import { clearSession, forgetOrigin } from '../lib/session.ts';

/** Logout (doc 1 §4): revoke the token (a failure is ignored), clear domain state and session, reset the cache. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    // The request reads the token before the session is cleared below.
    logout().catch(() => {});
    clearDomainState();
    forgetOrigin();
    clearSession('logout');
    queryClient.clear();
    navigate('/signin', { replace: true });
  }, [navigate, queryClient]);
}
