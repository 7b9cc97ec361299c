import { z } from "zod";
import type { ReauthChallenges } from "../../auth/reauth-challenge.ts";
import { CAPTCHA_WORKER, ResidentWorker } from "../../workers.ts";
import type { AppContext } from "../app-context.ts";
import { auditRefusal } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import { bearer, ROUTE_SETTING } from "../handler.ts";
import { refuseWhileThrottled } from "../login-guard.ts";
import type { Route } from "../router.ts";

/**
 * Captcha images are drawn in a worker thread (1.5–7 ms of CPU each). The queue holds a few seconds
 * of images: a flood past it is answered 429 at once instead of waiting behind itself.
 */
const captchaImages = new ResidentWorker<string, string>(CAPTCHA_WORKER, 64);

const loginBody = z.object({
  username: z.string("lang.login.err_required").trim().min(1, "lang.login.err_required"),
  password: z.string("lang.login.err_required").min(1, "lang.login.err_required"),
  captcha_id: z.string("lang.login.err_required").min(1, "lang.login.err_required"),
  captcha: z.string("lang.login.err_required").trim().min(1, "lang.login.err_required"),
  remember: z.boolean().optional().default(false),
});

const reauthBody = z.object({
  password: z
    .string("lang.login.err_required")
    .min(1, "lang.login.err_required")
    .max(2048, "lang.err.params"),
});

/** A GET that hands the admin session a single-use challenge to seal a password with (login-key.ts). */
export function challengeRoute(path: string, challenges: (app: AppContext) => ReauthChallenges): Route {
  return {
    method: "GET",
    path,
    handler: ({ app, credential }) => {
      if (credential.kind !== "admin") throw new ApiError(403, "lang.err.scope");
      return Response.json({ challenge: challenges(app).issue(credential.session) });
    },
  };
}

export const authRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/_/pubkey",
    public: true,
    handler: ({ app }) => Response.json({ pem: app.loginKey.publicPem }),
  },
  {
    method: "GET",
    path: "/api/_/captcha",
    public: true,
    handler: async ({ app, address }) => {
      if (captchaImages.full) throw new ApiError(429, "lang.login.err_busy");
      const { id, code } = app.captcha.create(address);
      const image = await captchaImages.run(code);
      return Response.json({ id, image }, { headers: { "cache-control": "no-store" } });
    },
  },
  {
    method: "POST",
    path: "/api/_/login",
    public: true,
    handler: async ({ req, app, address }) => {
      refuseWhileThrottled(app, address);
      const body = await parseBody(req, loginBody);
      if (!app.captcha.check(body.captcha_id, body.captcha)) {
        app.throttle.fail(address);
        app.logs.add("operation", "login failed: wrong verification code", address);
        throw badRequest("lang.login.err_captcha", { field: "captcha" });
      }
      // the plaintext is "captcha id:password": a login body seen on the wire is useless with a new captcha
      const sealed = app.loginKey.unseal(body.password);
      if (sealed === null) throw badRequest("lang.login.err_password_cipher", { field: "password" });
      if (sealed.nonce !== body.captcha_id) {
        app.throttle.fail(address);
        app.logs.add(
          "operation",
          "login refused: the password was sealed for another captcha (a replay)",
          address,
        );
        throw badRequest("lang.login.err_password_cipher", { field: "password" });
      }
      if (!(await app.account.verify(body.username, sealed.secret))) {
        app.throttle.failPassword(address);
        app.logs.add("operation", `login failed for "${body.username.slice(0, 64)}"`, address);
        throw badRequest("lang.login.err_info");
      }
      app.throttle.succeed(address);
      const { token, expiresAt } = app.tokens.issue(body.remember, address);
      app.logs.add("operation", `login successful for "${body.username}"`, address);
      return Response.json({
        token,
        expires_at: new Date(expiresAt).toISOString(),
        default_password: app.account.isDefaultPassword(),
      });
    },
  },
  challengeRoute("/api/_/reauth", (app) => app.reauthChallenges),
  {
    method: "POST",
    path: "/api/_/reauth",
    handler: async ({ req, app, address, credential }) => {
      // The password again, encrypted like the login's, throttled with it: a stolen session must not
      // become a way to guess the password.
      refuseWhileThrottled(app, address);
      const token = bearer(req);
      if (token === null || credential.kind !== "admin") throw new ApiError(403, "lang.err.scope");
      const { password } = await parseBody(req, reauthBody);
      // the plaintext is "challenge:password"; a challenge serves once, for its own session
      const sealed = app.loginKey.unseal(password);
      if (sealed === null || !app.reauthChallenges.take(credential.session, sealed.nonce))
        throw badRequest("lang.login.err_password_cipher", { field: "password" });
      if (!(await app.account.verifyPassword(sealed.secret))) {
        app.throttle.failPassword(address);
        auditRefusal(
          app,
          credential,
          address,
          "POST /api/_/reauth",
          "re-authentication with a wrong password",
        );
        throw badRequest("lang.reauth.err_password", { field: "password" });
      }
      app.throttle.succeed(address);
      app.tokens.reauthenticated(token);
      app.logs.add("operation", "session re-authenticated", address);
      return ok();
    },
  },
  {
    method: "POST",
    path: "/api/_/logout",
    handler: ({ req, app, address }) => {
      const token = bearer(req);
      if (token) app.tokens.revoke(token);
      app.logs.add("operation", "logout", address);
      return ok();
    },
  },
  {
    method: "GET",
    path: "/api/_/session",
    handler: ({ app }) =>
      Response.json({
        username: app.account.username(),
        default_password: app.account.isDefaultPassword(),
        route_set: app.settings.get<string>(ROUTE_SETTING, "") !== "",
      }),
  },
];
