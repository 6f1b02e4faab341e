/**
 * Under `astro dev`, every request gets the application object the site's server would pass
 * (src/server/ops/app.ts), built once on first use; then every request to the staff inbox
 * (/admin) passes its guard (src/server/inbox/inbox.ts); nothing else is touched.
 */
import { defineMiddleware } from 'astro:middleware';
import type { App } from './server/ops/app.ts';
import { guardAdmin, isAdminPath } from './server/inbox/inbox.ts';

let devApp: Promise<App> | undefined;

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  if (import.meta.env.DEV) context.locals.app ??= await (devApp ??= import('./server/ops/app.ts').then((m) => m.buildApp()));
  return isAdminPath(context.url.pathname) ? guardAdmin(context, next) : next();
});
