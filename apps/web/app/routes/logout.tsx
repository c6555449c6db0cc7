import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "../lib/session.server.ts";

export const action = ({ request }: ActionFunctionArgs) => signOut(request);
export const loader = () => redirect("/");
