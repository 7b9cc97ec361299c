import { useState } from "preact/hooks";
import { ApiError, get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { reauthRequest } from "../lib/reauth.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { Field } from "./Field.tsx";
import { Modal } from "./Modal.tsx";

/**
 * The password dialog of lib/reauth.ts: sends the password RSA-encrypted as the login does, behind a
 * single-use challenge of the server so that the ciphertext cannot be replayed.
 */
export function ReauthHost() {
  const request = useStore(reauthRequest);
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  if (!request) return null;
  const finish = (ok: boolean) => {
    setPassword("");
    setError("");
    request.done(ok);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!password) return;
    setBusy(true);
    try {
      const [{ pem }, { challenge }, rsa] = await Promise.all([
        get<{ pem: string }>("/api/_/pubkey", { quiet: true }),
        get<{ challenge: string }>("/api/_/reauth", { quiet: true }),
        import("../lib/rsa.ts"),
      ]);
      const sealed = rsa.encryptPassword(pem, `${challenge}:${password}`);
      await post("/api/_/reauth", { password: sealed }, { quiet: true });
      finish(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.text : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t("reauth.title")} onClose={() => finish(false)} testId="reauth">
      <form onSubmit={submit} class="space-y-3" noValidate>
        <p class="text-sm">{t("reauth.text")}</p>
        <Field label={t("login.password")}>
          <input
            class={INPUT}
            name="reauth-password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        {error && (
          <p role="alert" class="text-sm text-bad">
            {error}
          </p>
        )}
        <div class="flex justify-end gap-2">
          <button type="button" class={BTN_GHOST} onClick={() => finish(false)}>
            {t("common.cancel")}
          </button>
          <button type="submit" class={BTN_PRIMARY} disabled={busy || !password}>
            {t("reauth.submit")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
