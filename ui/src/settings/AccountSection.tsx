import { useState } from "preact/hooks";
import { useNavigate } from "react-router-dom";
import { Field } from "../components/Field.tsx";
import { get, post, setToken } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import type { FieldError } from "../lib/validate/types.ts";
import { type ChangeUserInput, validateChangeUser } from "../lib/validate/user.ts";

const FIELDS: [keyof ChangeUserInput, string, "text" | "password"][] = [
  ["username", "user.current_username", "text"],
  ["newUsername", "user.new_username", "text"],
  ["newUsername2", "user.confirm_username", "text"],
  ["password", "user.current_password", "password"],
  ["newPassword", "user.new_password", "password"],
  ["newPassword2", "user.confirm_password", "password"],
];

/** Change username and password: all six fields, each new value confirmed; signs everyone out. */
export function AccountSection() {
  const nav = useNavigate();
  const [f, setF] = useState<ChangeUserInput>({
    username: "",
    newUsername: "",
    newUsername2: "",
    password: "",
    newPassword: "",
    newPassword2: "",
  });
  const [errs, setErrs] = useState<FieldError[]>([]);
  const save = async (e: Event) => {
    e.preventDefault();
    const v = validateChangeUser(f);
    setErrs(v);
    if (v.length) {
      toast("err", t("lang.err.config_check"));
      return;
    }
    try {
      // sealed like the login's password, each "challenge:password" with one single-use challenge
      const [{ pem }, { challenge }, rsa] = await Promise.all([
        get<{ pem: string }>("/api/_/pubkey"),
        get<{ challenge: string }>("/api/_/changepassword"),
        import("../lib/rsa.ts"),
      ]);
      const seal = (password: string) => rsa.encryptPassword(pem, `${challenge}:${password}`);
      await post("/api/_/changepassword", {
        username: f.newUsername.trim(),
        rawpassword: seal(f.password),
        password: seal(f.newPassword),
        repassword: seal(f.newPassword2),
      });
      toast("ok", t("user.changed"));
      setToken(null);
      nav("/login", { replace: true });
    } catch {
      /* toast shown */
    }
  };
  return (
    <form class="grid gap-3 sm:grid-cols-2" onSubmit={save} noValidate data-testid="change-user">
      {FIELDS.map(([k, label, type]) => {
        const err = errs.find((x) => x.field === k);
        return (
          <Field key={k} label={t(label)} error={err ? t(err.key) : null}>
            {type === "password" ? (
              <input
                class={INPUT}
                name={k}
                type="password"
                autocomplete="off"
                value={f[k]}
                onInput={(e) => setF({ ...f, [k]: e.currentTarget.value })}
              />
            ) : (
              <input
                class={INPUT}
                name={k}
                autocomplete="off"
                value={f[k]}
                onInput={(e) => setF({ ...f, [k]: e.currentTarget.value })}
              />
            )}
          </Field>
        );
      })}
      <div class="sm:col-span-2">
        <button type="submit" class={BTN_PRIMARY}>
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
