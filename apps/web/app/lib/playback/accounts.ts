import type { Accounts } from "./sources.ts";

/** What `/provider-token/{provider}` answers: the listener's own token at the provider (never anyone else's). */
export interface ProviderToken {
  /** Spotify: the access token; Apple Music: the music user token. */
  accessToken: string;
  /** Apple Music: Booth's developer token, which MusicKit is configured with. */
  developerToken?: string;
  expiresAt: string | null;
}

type Provider = keyof Accounts;

/**
 * The listener's connected accounts, asked of the web server once per page and provider while the token lasts (kept in
 * memory only). Not signed in, not connected, or the provider not configured: no account, and the song plays its
 * preview.
 */
export class ProviderAccounts {
  private readonly tokens = new Map<Provider, Promise<ProviderToken | null>>();

  constructor(private readonly signedIn: boolean) {}

  token(provider: Provider): Promise<ProviderToken | null> {
    if (!this.signedIn) return Promise.resolve(null);
    let token = this.tokens.get(provider);
    if (!token) {
      token = fetch(`/provider-token/${provider}`, { headers: { accept: "application/json" } })
        .then((res) => (res.ok ? (res.json() as Promise<ProviderToken>) : null))
        .catch(() => null);
      this.tokens.set(provider, token);
      // Asked again once it expires (a minute early); no account is asked about again after ten minutes (one may
      // have been connected meanwhile), not at every song.
      void token.then((t) => {
        const left = t?.expiresAt
          ? Date.parse(t.expiresAt) - Date.now() - 60_000
          : t
            ? Number.POSITIVE_INFINITY
            : 600_000;
        if (left < 2 ** 31) setTimeout(() => this.tokens.delete(provider), Math.max(0, left));
      });
    }
    return token;
  }

  /** Which of `wanted` the listener has. */
  async which(wanted: Accounts): Promise<Accounts> {
    const [spotify, apple] = await Promise.all([
      wanted.spotify ? this.token("spotify") : null,
      wanted.apple ? this.token("apple") : null,
    ]);
    return { spotify: spotify !== null, apple: apple !== null };
  }

  /** The token now (asked again when it expired); a player that finds none gives up its song. */
  async require(provider: Provider): Promise<ProviderToken> {
    const token = await this.token(provider);
    if (!token) throw new Error(`${provider} is not connected`);
    return token;
  }
}
