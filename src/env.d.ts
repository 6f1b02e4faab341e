declare namespace App {
  interface Locals {
    /** Set by the receiver when a form post (JavaScript off) is refused; read by /SubmissionProblem. */
    submissionProblem?: {
      readonly problem: import('./server/receiver').FormProblem;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
    };
  }
}
