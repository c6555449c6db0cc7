/**
 * The stable machine codes of the edge's error answers (the `code` beside `message` in every error body), and the
 * English message each one stands for: a contract between the edge and its clients, kept here with the live room's.
 * A client keys its own texts (the web's `errors` namespace, in the person's language) on the code, never on the
 * message: messages may be reworded, codes never change meaning.
 *
 * Two kinds:
 * - specific codes, one per meaning a person meets (a wrong password, a taken nickname, a full room): the message
 *   here is the one the edge answers, byte for byte (the specs in /work/shared/spec give many of them). An edge throw
 *   site uses `errorMessage("CODE")` (apps/edge/src/lib/error-codes.ts); an answer whose message is one of these gets
 *   its code wherever it was thrown (`codeFor` there), so the same meaning always carries the same code.
 * - generic codes, one per status (`NOT_FOUND`, `FORBIDDEN`...), for every other refusal: the message then is the
 *   only description, and a client shows it as it is.
 *
 * Adding one: a new entry in ERROR_MESSAGES (UPPER_SNAKE_CASE, named for the meaning, not the route), the throw site
 * reading its message from here. The web's English texts are these messages (apps/web/app/i18n/errors.ts spreads
 * them); it adds the other languages' under the same key (apps/web/app/i18n/es/errors.ts, which the type checker
 * holds to every code). A code, once answered, is never renamed or reused for another meaning.
 */
export const ERROR_MESSAGES = {
  // Signing up, in and out; accounts and verification.
  INCORRECT_LOGIN: "Incorrect email or password.",
  EMAIL_ALREADY_REGISTERED: "This email is already registered.",
  NICKNAME_TAKEN: "This nickname is already taken.",
  MISSING_EMAIL_OR_PASSWORD: "Email or password is missing in request.",
  MISSING_VOUCHER_FIELDS: "Email, password, or voucher code is missing in request.",
  INVALID_VOUCHER: "This voucher code is not valid.",
  CODE_INCORRECT: "The code is incorrect or has expired.",
  EMAIL_VERIFICATION_FAILED: "Email verification failed, incorrect code.",
  EMAIL_ALREADY_VERIFIED: "This email is verified.",
  EMAIL_RESEND_TOO_SOON: "The minimum time has not yet elapsed since the last e-mail was sent.",
  EMAIL_NOT_FOUND: "Email not found.",
  ACCOUNT_DEACTIVATED: "This account is deactivated.",
  ACCOUNT_BANNED: "This account is banned.",
  MAGIC_LINK_INVALID: "This sign-in link is invalid or has expired.",
  PASSWORD_RESET_REFUSED: "Can not reset password.",
  WRONG_CURRENT_PASSWORD: "The current password is incorrect.",
  PHONE_REFUSED: "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
  PHONE_TAKEN: "This phone number is already verified by another account.",
  USER_NOT_FOUND: "User not found.",
  PROFILE_NOT_FOUND: "User profile not found.",
  TOO_MANY_ATTEMPTS: "Too many attempts, please try again later.",
  ALREADY_HAS_ROLE: "This user has already this role.",
  UNAUTHORIZED_TO_DELETE: "Unauthorized to delete.",
  /** A music service or Discord refused the code or refresh token (the message names it and its OAuth error). */
  PROVIDER_GRANT_REFUSED: "The provider refused the authorization.",
  /** Apple checked the music user token MusicKit gave the browser and did not accept it. */
  APPLE_MUSIC_TOKEN_REFUSED: "Apple Music refused the music user token.",
  // Friends and direct messages.
  MESSAGE_FRIENDS_ONLY: "You can only message your friends.",
  MESSAGE_BLOCKED: "You cannot message this user.",
  MESSAGE_UNVERIFIED: "Verify your profile to send direct messages.",
  MESSAGE_SELF: "You cannot message yourself.",
  CONVERSATION_NOT_FOUND: "Conversation not found.",
  // Rooms.
  ROOM_NOT_FOUND: "Room not found.",
  ROOM_SLUG_TAKEN: "This room slug is already taken.",
  TOO_MANY_ROOMS: "You can own at most 25 rooms.",
  ROOM_BANNED: "You are banned from this room.",
  ROOM_KICKED: "You were removed from this room. Try again later.",
  ROOM_PASSWORD_NEEDED: "This room needs a password.",
  ROOM_WRONG_PASSWORD: "Wrong room password.",
  ROOM_GUESTS_NOT_ALLOWED: "Guests cannot join this room.",
  ROOM_FULL: "This room is full.",
  ROOM_JOIN_FIRST: "Join the room first.",
  // Crates, songs and imports.
  CRATE_NOT_FOUND: "Crate not found.",
  SONG_ALREADY_IN_CRATE: "This song is already in the crate.",
  SONG_NOT_IN_CRATE: "This song is not in the crate.",
  SONG_NOT_FOUND: "Song not found.",
  ROOM_CRATE_OWNER_ONLY: "Only the room's owner picks its room crate.",
  ROOM_CRATE_NOT_A_PLAYLIST: "A queue or likes crate cannot be a room crate: pick a playlist.",
  NOT_A_TRACK_LINK: "This is not a track link of a music service we know.",
  NOT_A_PLAYLIST_LINK: "This is not a Spotify, YouTube or SoundCloud playlist link.",
  SONG_NOT_IN_CATALOG: "Sorry, this song is not in our catalog and can't be imported.",
  PLAYLIST_NOT_FOUND: "This playlist does not exist or is private.",
  PLAYLIST_IMPORT_NOT_FOUND: "Playlist import not found.",
  // The shop and tokens.
  INSUFFICIENT_TOKENS: "Your token balance is too low for this.",
  NOT_FOR_SALE: "This product is no longer for sale.",
  PRODUCT_NOT_FOUND: "Product not found.",
  NO_TOKEN_BUNDLE: "This product has no token bundle to sell.",
  CHECKOUT_NOT_FOUND: "Checkout not found.",
  NOT_YOUR_CHECKOUT: "This checkout belongs to someone else.",
  AVATAR_NOT_FOUND: "Avatar not found.",
  // Uploads.
  IMAGE_TOO_LARGE: "The image is larger than 5 MB.",
  IMAGE_UNSUPPORTED: "The file is not a png, jpeg, webp or gif image.",
  AUDIO_UNREADABLE: "The file could not be read as audio; it may be damaged or truncated.",
  /** Spelled as the spec names it (seed-rooms-music-tokens.md §8): clients already key on it. */
  "mismatched-token-cost": "The token cost has changed; please get a new quote.",
  // Faults any route can meet.
  DATABASE_UNAVAILABLE: "The database is not answering; please try again shortly.",
  VALUE_REFUSED: "A value in the request is out of range or malformed.",
  CONFLICTING_CHANGE: "The request conflicts with the current state; reload and try again.",
  NUL_IN_TEXT: "Text must not contain NUL characters (\\u0000).",
  /** A request zod refused: the message is the list of "field: reason". */
  VALIDATION_FAILED: "The request is not valid.",
} as const;

export type SpecificErrorCode = keyof typeof ERROR_MESSAGES;

/** The code of every other refusal, by status (the message is then the answer's own, or the status text). */
export const STATUS_CODES = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  410: "GONE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
} as const;

/** The code of a status not in STATUS_CODES (the spec's "Generic Error"). */
export const OTHER_ERROR = "ERROR";

export type GenericErrorCode = (typeof STATUS_CODES)[keyof typeof STATUS_CODES] | typeof OTHER_ERROR;
export type ErrorCode = SpecificErrorCode | GenericErrorCode;

/** Every code an answer can carry. */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...(Object.keys(ERROR_MESSAGES) as SpecificErrorCode[]),
  ...Object.values(STATUS_CODES),
  OTHER_ERROR,
];

export const isErrorCode = (value: unknown): value is ErrorCode => ERROR_CODES.includes(value as ErrorCode);
