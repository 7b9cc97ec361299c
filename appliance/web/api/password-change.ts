import { z } from "zod";
import { audit, auditRefusal } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import { refuseWhileThrottled } from "../login-guard.ts";
import type { Route } from "../router.ts";
import { challengeRoute } from "./auth.ts";

/** Longest new password in UTF-8 bytes: "challenge:password" must fit one RSA-OAEP block (190 bytes). */
export const PASSWORD_MAX_BYTES = 128;

const sealed = z
  .string("lang.err.config_check")
  .min(1, "lang.err.config_check")
  .max(2048, "lang.user.err_cipher");
/**
 * Spec §7: `username` is the new username, `rawpassword` the current password, `password` and
 * `repassword` the new one twice (the console also confirms the new username before sending). The
 * three passwords arrive sealed like the login's (login-key.ts), each as "challenge:password" with the
 * one challenge GET /api/_/changepassword handed to the session.
 */
const changeBody = z.object({
  username: z
    .string("lang.err.config_check")
    .trim()
    .min(1, "lang.err.config_check")
    .max(64, "lang.err.config_check"),
  rawpassword: sealed,
  password: sealed,
  repassword: sealed,
});

export const passwordChangeRoutes: Route[] = [
  challengeRoute("/api/_/changepassword", (app) => app.passwordChallenges),
  {
    method: "POST",
    path: "/api/_/changepassword",
    reauth: true,
    handler: async (r) => {
      const { req, app, address, credential } = r;
      if (credential.kind !== "admin") throw new ApiError(403, "lang.err.scope");
      // throttled like the login: a stolen session must not become a way to guess the password
      refuseWhileThrottled(app, address);
      const body = await parseBody(req, changeBody);
      const unseal = (field: "rawpassword" | "password" | "repassword") => {
        const opened = app.loginKey.unseal(body[field]);
        if (opened === null) throw badRequest("lang.user.err_cipher", { field });
        return opened;
      };
      const current = unseal("rawpassword");
      const next = unseal("password");
      const again = unseal("repassword");
      // one challenge for all three, usable once: a recorded request cannot be sent again
      if (
        next.nonce !== current.nonce ||
        again.nonce !== current.nonce ||
        !app.passwordChallenges.take(credential.session, current.nonce)
      )
        throw badRequest("lang.user.err_cipher", { field: "rawpassword" });
      if (next.secret.length < 8) throw badRequest("lang.user.err_short", { field: "password" });
      if (Buffer.byteLength(next.secret) > PASSWORD_MAX_BYTES)
        throw badRequest("lang.user.err_long", { field: "password" });
      if (next.secret !== again.secret) throw badRequest("lang.user.err_mismatch", { field: "repassword" });
      if (!(await app.account.verifyPassword(current.secret))) {
        app.throttle.failPassword(address);
        auditRefusal(app, credential, address, r.action, "password change with a wrong current password");
        throw badRequest("lang.err.config_check", { field: "rawpassword" });
      }
      app.throttle.succeed(address);
      // the password and both machine tokens change: the entry says so, redacted
      const account = () => ({
        username: app.account.username(),
        password: app.admin.get()?.password_hash ?? "",
        control_token: app.machines.get("control"),
        metrics_token: app.machines.get("metrics"),
      });
      const before = account();
      await app.account.change(body.username, next.secret);
      audit(r, "admin account", before, account());
      app.logs.add("operation", "admin username/password changed; all sessions signed out", address);
      return ok();
    },
  },
];
