import { useEffect, useState } from "preact/hooks";
import { useNavigate } from "react-router-dom";
import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { LangThemeBar } from "../components/LangThemeBar.tsx";
import { ApiError, get, post, sessionLost, setToken } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { session } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, CARD, INPUT } from "../lib/ui.ts";

interface Captcha {
  id: string;
  image: string;
}
interface LoginReply {
  token: string;
  expires_at: string;
  default_password: boolean;
}

/** Login: username, RSA-encrypted password, captcha (reloaded after a failure), remember account. */
export function Login() {
  const nav = useNavigate();
  const remembered = prefs.get().loginfo;
  const [username, setUsername] = useState(remembered);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [remember, setRemember] = useState(remembered !== "");
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const reload = () =>
    get<Captcha>("/api/_/captcha")
      .then(setCaptcha)
      .catch(() => undefined);
  useEffect(() => {
    reload();
    import("../lib/rsa.ts").catch(() => undefined);
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!username.trim() || !password || !code.trim()) {
      setError(t("login.required"));
      return;
    }
    setBusy(true);
    setError("");
    try {
      const [{ pem }, rsa] = await Promise.all([
        get<{ pem: string }>("/api/_/pubkey"),
        import("../lib/rsa.ts"),
      ]);
      const captchaId = captcha?.id ?? "";
      const reply = await post<LoginReply>(
        "/api/_/login",
        {
          username: username.trim(),
          // sealed with its captcha id: the server refuses the ciphertext with any other captcha
          password: rsa.encryptPassword(pem, `${captchaId}:${password}`),
          captcha_id: captchaId,
          captcha: code.trim(),
          remember,
        },
        { quiet: true },
      );
      setToken(reply.token);
      setPref("loginfo", remember ? username.trim() : "");
      sessionLost.set(false);
      session.set(null);
      toast("ok", t("login.ok"));
      nav("/system/index/chartcard", { replace: true });
    } catch (err) {
      const wait = err instanceof ApiError ? err.body?.retry_after : undefined;
      const text = err instanceof ApiError ? err.text : t("login.failed");
      setError(wait ? `${text} (${t("login.retry_after", { n: wait })})` : text);
      setCode("");
      reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="flex min-h-screen flex-col items-center justify-center p-4">
      <div class="mb-3 w-full max-w-sm">
        <LangThemeBar />
      </div>
      <form class={`${CARD} w-full max-w-sm space-y-3 p-5`} onSubmit={submit} noValidate>
        <h1 class="text-xl font-semibold">
          <span class="text-acc">Pithead</span> · {t("login.title")}
        </h1>
        <Field label={t("login.username")}>
          <input
            class={INPUT}
            name="username"
            autocomplete="username"
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </Field>
        <Field label={t("login.password")}>
          <input
            class={INPUT}
            name="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <div class="flex items-end gap-2">
          <Field label={t("login.captcha")} class="flex-1">
            <input
              class={INPUT}
              name="captcha"
              autocomplete="off"
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </Field>
          <button
            type="button"
            class="h-9 w-28 overflow-hidden rounded border border-line bg-white"
            onClick={reload}
            title={t("login.captcha_reload")}
          >
            {captcha && (
              <img src={captcha.image} alt={t("login.captcha_image")} class="h-full w-full object-contain" />
            )}
          </button>
        </div>
        <Check label={t("login.remember")} checked={remember} onChange={setRemember} />
        {error && (
          <p role="alert" class="text-sm text-bad">
            {error}
          </p>
        )}
        <button type="submit" class={`${BTN_PRIMARY} w-full`} disabled={busy}>
          {t("login.submit")}
        </button>
        <details class="text-xs text-mute">
          <summary class="cursor-pointer">{t("login.forgot")}</summary>
          <p class="mt-1">{t("login.forgot_linux")}</p>
          <p class="mt-1">{t("login.forgot_windows")}</p>
        </details>
      </form>
    </main>
  );
}
