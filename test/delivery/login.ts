/**
 * The scripted login of the console's wire format: RSA-OAEP (SHA-256) over the UTF-8 text
 * "captcha id:password", base64, with a captcha answer. With `--test-captcha CODE` the answer is CODE.
 */
import { encryptPassword } from "../support/appliance.ts";

export async function login(base: string, password: string, captchaAnswer: string): Promise<string> {
  const { pem } = (await (await fetch(`${base}/api/_/pubkey`)).json()) as { pem: string };
  const captcha = (await (await fetch(`${base}/api/_/captcha`)).json()) as { id: string; image: string };
  if (!captcha.image.startsWith("data:image/")) throw new Error("captcha image is not a data URL");
  const encrypted = encryptPassword(pem, `${captcha.id}:${password}`);
  const res = await fetch(`${base}/api/_/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      username: "admin",
      password: encrypted,
      captcha_id: captcha.id,
      captcha: captchaAnswer,
      remember: false,
    }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 200 || typeof body.token !== "string") {
    throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
