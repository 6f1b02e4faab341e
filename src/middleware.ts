/**
 * Pages built ahead keep each name of src/lib/whole-names.ts on one line. Under `astro dev`, other
 * requests get the application object the site's server would pass (src/server/ops/app.ts); then
 * the staff inbox (/admin) passes its guard (src/server/inbox/inbox.ts).
 */
import { defineMiddleware } from 'astro:middleware';
import type { App } from './server/ops/app.ts';
import { guardAdmin, isAdminPath } from './server/inbox/inbox.ts';
import { wrapWholeNamesInHtml } from './lib/whole-names.ts';

let devApp: Promise<App> | undefined;

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) {
    const response = await next();
    if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
    return new Response(wrapWholeNamesInHtml(await response.text()), response);
  }
  if (import.meta.env.DEV) context.locals.app ??= await (devApp ??= import('./server/ops/app.ts').then((m) => m.buildApp()));
  return isAdminPath(context.url.pathname) ? guardAdmin(context, next) : next();
});
