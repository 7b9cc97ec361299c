import { describe, expect, test } from "bun:test";
import { PASSWORD_MAX_BYTES } from "../../../appliance/web/api/password-change.ts";
import { validateChangeUser } from "../../../ui/src/lib/validate/user.ts";

describe("change user: the new password fits its encryption", () => {
  const form = (newPassword: string) => ({
    username: "admin",
    newUsername: "admin",
    newUsername2: "admin",
    password: "current",
    newPassword,
    newPassword2: newPassword,
  });

  test("counts UTF-8 bytes, as the server does, not characters", () => {
    expect(validateChangeUser(form("a".repeat(PASSWORD_MAX_BYTES)))).toEqual([]);
    expect(validateChangeUser(form("a".repeat(PASSWORD_MAX_BYTES + 1)))).toEqual([
      { field: "newPassword", key: "lang.user.err_long" },
    ]);
    // 43 Chinese characters are 129 bytes
    expect(validateChangeUser(form("密".repeat(43))).map((e) => e.key)).toEqual(["lang.user.err_long"]);
    expect(validateChangeUser(form("密".repeat(42)))).toEqual([]);
  });
});
