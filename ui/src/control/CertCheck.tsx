import { Check } from "../components/Check.tsx";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { PresentedCert } from "../lib/remote-types.ts";

/**
 * The certificate a remote presents, for the operator to compare with the fingerprint the remote's
 * own console shows (Settings → Web access) before it is trusted: trust on first use.
 */
export function CertCheck({
  cert,
  pinned,
  confirmed,
  onConfirm,
}: {
  cert: PresentedCert;
  /** the fingerprint trusted until now, when re-pinning */
  pinned?: string;
  confirmed: boolean;
  onConfirm: (v: boolean) => void;
}) {
  return (
    <div class="space-y-2 rounded border border-warn p-2 text-sm" data-testid="remote-cert">
      <p>{t("remote.cert_intro")}</p>
      {pinned && (
        <p class="text-xs">
          <span class="text-mute">{t("remote.cert_pinned")}</span> <code class="break-all">{pinned}</code>
        </p>
      )}
      <p class="text-xs">
        <span class="text-mute">{t("remote.cert_fingerprint")}</span>{" "}
        <code class="break-all" data-testid="remote-fingerprint">
          {cert.fingerprint}
        </code>
      </p>
      <p class="text-xs text-mute">
        {cert.subject} · {t("remote.cert_until", { date: formatTime(cert.notAfter) })}
      </p>
      <Check label={t("remote.cert_confirm")} checked={confirmed} onChange={onConfirm} />
    </div>
  );
}
