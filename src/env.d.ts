declare namespace App {
  interface Locals {
    /** The application object (src/server/ops/app.ts): from the site's server on every request, or built by src/middleware.ts under `astro dev`. */
    app: import('./server/ops/app').App;
    /** The client's address as the site's server resolved it (through trusted proxies); unset under `astro dev`. */
    clientAddress?: string;
    /** Set by the receiver when a form post (JavaScript off) is refused; read by /SubmissionProblem (/ar/SubmissionProblem in Arabic). */
    submissionProblem?: {
      readonly problem: import('./server/receiver/receiver').FormProblem;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      /** The refused request's id (X-Request-Id), shown on the page so a visitor's report finds its log line. */
      readonly requestId?: string | undefined;
    };
    /** The signed-in staff member's session, on /admin pages (src/server/inbox/inbox.ts). */
    staff?: import('./server/inbox/inbox-store').StaffSession | undefined;
    /** A POST's form on /admin pages, read once by the guard (its token checked). */
    adminForm?: FormData;
    /** The inbox's language for this request (src/server/inbox/admin-locale.ts): the switch's cookie, else Accept-Language. */
    adminLocale?: import('./i18n').Locale | undefined;
    /** A session whose password was accepted but whose second step (a code, or setting one up) is still owed. */
    pendingStaff?: import('./server/inbox/inbox-store').StaffSession | undefined;
  }
}
