/** The largest image a person may upload (profile pictures, room images, consumable icons). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image formats accepted, recognised by their first bytes rather than by what the client claims. */
export function sniffImage(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return "image/webp";
  return null;
}

/** Where Booth serves a stored image: the only image address a client may put in front of another. */
export const imageUrl = (id: string) => `/api/user-service/users/images/${id}`;
