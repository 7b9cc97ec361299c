/**
 * Spec §7's vendor-account calls (`captcha/image`, `captcha/check`, `user/login`, `send/mail`,
 * `send/user/mail`): in the closed products the pool node is rented from the vendor, whose account
 * the operator logs in to and verifies by mail. Here the node runs on the operator's own daemon and
 * there is no such account, so each call is refused with a message that says why, rather than
 * answering as if a login or a mail had happened.
 */
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

const VENDOR_CALLS = [
  ["GET", "/api/poolnode/captcha/image"],
  ["POST", "/api/poolnode/captcha/check"],
  ["POST", "/api/poolnode/user/login"],
  ["POST", "/api/poolnode/send/mail"],
  ["POST", "/api/poolnode/send/user/mail"],
] as const;

export const poolNodeVendorRoutes: Route[] = VENDOR_CALLS.map(([method, path]) => ({
  method,
  path,
  handler: () => {
    throw badRequest("lang.poolnode.err_no_vendor");
  },
}));
