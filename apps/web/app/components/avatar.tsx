/** A person's disc: their colour and initials (avatar images come with the avatars screen). */
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
      style={{ width: size, height: size, fontSize: size * 0.4, background: color || "#8b5cf6" }}
    >
      {initials}
    </span>
  );
}
