import { useRouteLoaderData } from "@remix-run/react";

/** What the root loader gives every page for drawing people (see lib/root.server.ts). */
interface AvatarRootData {
  avatarImages?: Record<string, string>;
  env?: { apiUrl: string };
}

/**
 * The picture of an avatar, when it has one: an address on the edge, from the edge's own list of avatar pictures
 * (`GET /avatar-images`, loaded once per page by the root), never one a person sent.
 */
export function useAvatarImage(avatarId: string | null | undefined): string | null {
  const root = useRouteLoaderData("root") as AvatarRootData | undefined;
  const path = avatarId ? root?.avatarImages?.[avatarId] : undefined;
  if (!path) return null;
  return `${root?.env?.apiUrl ?? ""}${path}`;
}

/** A person's disc: their avatar's picture when it has one, else their colour and initials. */
export function Avatar({
  id,
  name,
  color,
  size = 40,
  className,
}: {
  id?: string | null;
  name: string;
  color?: string | null;
  size?: number;
  className?: string;
}) {
  const image = useAvatarImage(id);
  if (image)
    return (
      <img
        className={`avatar avatar-picture ${className ?? ""}`}
        src={image}
        alt=""
        title={name}
        data-avatar={id ?? undefined}
        width={size}
        height={size}
        style={{ borderColor: color || "#8b5cf6" }}
      />
    );
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase())
      .join("") || "?";
  return (
    <span
      className={`avatar ${className ?? ""}`}
      title={name}
      data-avatar={id ?? undefined}
      style={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        background: color || "#7c3aed",
        color: inkOn(color || "#7c3aed"),
      }}
    >
      {initials}
    </span>
  );
}

/**
 * White initials, or dark ones where white would not stand out enough on a person's own colour (WCAG AA, 4.5:1).
 * A colour that is not a hex value keeps white.
 */
export function inkOn(background?: string | null): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(background ?? "")?.[1];
  if (!hex) return "white";
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const channel = (i: number) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05) >= 4.5 ? "white" : "#0b0814";
}
