import type { ButtonHTMLAttributes } from "react";

/**
 * A small ghost button that shows only a symbol (its children): `label` names it, to screen readers (aria-label) and
 * on hover (title). Every other prop is the button's own.
 */
export function IconButton({
  label,
  type = "button",
  ...button
}: { label: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className="btn btn-small btn-ghost" aria-label={label} title={label} {...button} />;
}
