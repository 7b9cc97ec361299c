import { z } from "zod";
import { renderCaptcha } from "../../auth/captcha-image.ts";
import { audit, auditRefusal } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import { bearer, ROUTE_SETTING } from "../handler.ts";
import type { Route } from "../router.ts";

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

const required = z.string("lang.err.config_check").trim().min(1, "lang.err.config_check");
/**
 * Spec §7: `username` is the new username, `rawpassword` the current password, `password` and
 * `repassword` the new one twice (the console also confirms the new username before sending).
 */
const changeBody = z.object({
  username: required.max(64, "lang.err.config_check"),
  rawpassword: z.string("lang.err.config_check").min(1, "lang.err.config_check"),
  password: z.string("lang.err.config_check").min(8, "lang.user.err_short").max(256, "lang.err.config_check"),
  repassword: z.string("lang.err.config_check").min(1, "lang.err.config_check"),
});

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
    handler: ({ app }) => {
      const { id, code } = app.captcha.create();
      return Response.json({ id, image: renderCaptcha(code) }, { headers: { "cache-control": "no-store" } });
    },
  },
  {
    method: "POST",
    path: "/api/_/login",
    public: true,
    handler: async ({ req, app, address }) => {
      const wait = app.throttle.retryAfter(address);
      if (wait > 0) throw new ApiError(429, "lang.login.err_throttled", { retry_after: wait });
      const body = await parseBody(req, loginBody);
      if (!app.captcha.check(body.captcha_id, body.captcha)) {
        app.throttle.fail(address);
        app.logs.add("operation", "login failed: wrong verification code", address);
        throw badRequest("lang.login.err_captcha", { field: "captcha" });
      }
      const password = app.loginKey.decrypt(body.password);
      if (password === null) throw badRequest("lang.login.err_password_cipher", { field: "password" });
      if (!(await app.account.verify(body.username, password))) {
        app.throttle.fail(address);
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
  {
    method: "GET",
    path: "/api/_/reauth",
    handler: ({ app, credential }) => {
      if (credential.kind !== "admin") throw new ApiError(403, "lang.err.scope");
      return Response.json({ challenge: app.reauthChallenges.issue(credential.session) });
    },
  },
  {
    method: "POST",
    path: "/api/_/reauth",
    handler: async ({ req, app, address, credential }) => {
      // The password again, encrypted like the login's, throttled with it: a stolen session must not
      // become a way to guess the password.
      const wait = app.throttle.retryAfter(address);
      if (wait > 0) throw new ApiError(429, "lang.login.err_throttled", { retry_after: wait });
      const token = bearer(req);
      if (token === null || credential.kind !== "admin") throw new ApiError(403, "lang.err.scope");
      const { password } = await parseBody(req, reauthBody);
      // the plaintext is "challenge:password"; a challenge serves once, for its own session
      const plain = app.loginKey.decrypt(password);
      const colon = plain?.indexOf(":") ?? -1;
      if (plain == null || colon < 1 || !app.reauthChallenges.take(credential.session, plain.slice(0, colon)))
        throw badRequest("lang.login.err_password_cipher", { field: "password" });
      if (!(await app.account.verifyPassword(plain.slice(colon + 1)))) {
        app.throttle.fail(address);
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
  {
    method: "POST",
    path: "/api/_/changepassword",
    reauth: true,
    handler: async (r) => {
      const { req, app, address } = r;
      const body = await parseBody(req, changeBody);
      if (body.password !== body.repassword)
        throw badRequest("lang.user.err_mismatch", { field: "repassword" });
      if (!(await app.account.verifyPassword(body.rawpassword))) {
        app.throttle.fail(address);
        throw badRequest("lang.err.config_check", { field: "rawpassword" });
      }
      // the password and both machine tokens change: the entry says so, redacted
      const account = () => ({
        username: app.account.username(),
        password: app.admin.get()?.password_hash ?? "",
        control_token: app.machines.get("control"),
        metrics_token: app.machines.get("metrics"),
      });
      const before = account();
      await app.account.change(body.username, body.password);
      audit(r, "admin account", before, account());
      app.logs.add("operation", "admin username/password changed; all sessions signed out", address);
      return ok();
    },
  },
];
