import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";
import { errorFor, type TabProps } from "./types.ts";

/** RFC 1929 username and password of a SOCKS5 port: both empty, miners connect without authentication. */
export function SocksCredentials({ form, set, errors }: TabProps) {
  const err = (f: string) => {
    const k = errorFor(errors, f);
    return k ? t(k) : null;
  };
  return (
    <>
      <Field label={t("port.socks_user")} error={err("socks_user")} hint={t("port.socks_hint")}>
        <input
          class={INPUT}
          name="socks_user"
          autoComplete="off"
          value={form.socksUser}
          onInput={(e) => set({ socksUser: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("port.socks_password")} error={err("socks_password")}>
        <input
          class={INPUT}
          name="socks_password"
          type="password"
          autoComplete="new-password"
          value={form.socksPassword}
          onInput={(e) => set({ socksPassword: e.currentTarget.value })}
        />
      </Field>
    </>
  );
}
