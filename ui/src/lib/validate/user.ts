import type { FieldError } from "./types.ts";

export interface ChangeUserInput {
  username: string;
  newUsername: string;
  newUsername2: string;
  password: string;
  newPassword: string;
  newPassword2: string;
}

/** The server's bound (web/api/password-change.ts): the sealed password must fit one RSA block. */
const PASSWORD_MAX_BYTES = 128;

/** All six fields required; each new value confirmed (spec §5); the new password fits its encryption. */
export function validateChangeUser(f: ChangeUserInput): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(f))
    if (v.trim() === "") errs.push({ field: k, key: "lang.err.config_check" });
  if (errs.length) return errs;
  if (f.newUsername !== f.newUsername2) errs.push({ field: "newUsername2", key: "lang.user.err_mismatch" });
  if (new TextEncoder().encode(f.newPassword).length > PASSWORD_MAX_BYTES)
    errs.push({ field: "newPassword", key: "lang.user.err_long" });
  if (f.newPassword !== f.newPassword2) errs.push({ field: "newPassword2", key: "lang.user.err_mismatch" });
  return errs;
}
