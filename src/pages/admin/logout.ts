/** POST /admin/logout: ends the session (the guard has checked its origin and token). */
import type { APIRoute } from 'astro';
import { LOGIN_PATH } from '../../server/inbox/inbox.ts';
import { signOut } from '../../server/inbox/sign-in.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const session = context.locals.staff ?? context.locals.pendingStaff;
  if (session) await signOut(context, session);
  return context.redirect(LOGIN_PATH, 303);
};
