/** Ten characters of base 62, for the short ids people see in links. */
export function shortId() {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const out: string[] = [];
  while (out.length < 10)
    for (const b of crypto.getRandomValues(new Uint8Array(16)))
      if (b < 248 && out.length < 10) out.push(alphabet[b % 62] ?? "0");
  return out.join("");
}
