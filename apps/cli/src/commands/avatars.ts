import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { type BoothCommand, type Context, table } from "../context.ts";

const STATUSES = ["PUBLIC", "PRIVATE", "SEASON_AWARD", "SUBSCRIBER_ONLY"] as const;
type Status = (typeof STATUSES)[number];
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

interface AvatarOptions {
  name?: string;
  status?: string;
  season?: string;
  minPoints?: string;
  discordOnly?: boolean;
  image?: string;
}

/** Uploads an image file through the merch service's files and answers its id. */
export async function uploadImage(ctx: Context, path: string) {
  const type = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!type) throw new Error(`${path}: use a png, jpeg, webp or gif image`);
  const form = new FormData();
  form.append("file", new Blob([await readFile(path)], { type }), basename(path));
  const { data } = await ctx.client.merch.POST("/files", { body: form as never });
  if (!data) throw new Error("the image upload answered nothing");
  return data.id;
}

async function avatarBody(ctx: Context, o: AvatarOptions) {
  if (o.status && !STATUSES.includes(o.status as Status)) throw new Error(`--status: one of ${STATUSES.join(", ")}`);
  return {
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.status ? { avatarStatus: o.status as Status } : {}),
    ...(o.season !== undefined ? { seasonId: o.season === "none" ? null : o.season } : {}),
    ...(o.minPoints !== undefined ? { minPoints: o.minPoints === "none" ? null : Number(o.minPoints) } : {}),
    ...(o.discordOnly !== undefined ? { discordOnly: o.discordOnly } : {}),
    ...(o.image ? { fileId: await uploadImage(ctx, o.image) } : {}),
  };
}

const COLUMNS = ["slug", "name", "avatarStatus", "seasonId", "minPoints", "imageUrl"];

export function avatarCommands(program: BoothCommand) {
  const avatars = program
    .command("avatars")
    .description("Avatars: the catalogue, season awards, who wears what (admins)");
  avatars
    .command("list")
    .description("Every avatar, private ones included (staff)")
    .option("-s, --status <status>", `only one status: ${STATUSES.join(", ")}`)
    .json()
    .examples("booth avatars list", "booth avatars list -s SEASON_AWARD --json")
    .run(async (ctx, options: { status?: string }) => {
      const { data } = await ctx.client.merch.GET("/admin/avatars");
      const rows = (data ?? []).filter((a) => !options.status || a.avatarStatus === options.status);
      ctx.print(rows, () => table(rows as Record<string, unknown>[], COLUMNS));
    });
  avatars
    .command("show <slug>")
    .description("One avatar (staff)")
    .json()
    .examples("booth avatars show neon-cat")
    .run(async (ctx, slug: string) => {
      const { data } = await ctx.client.merch.GET("/admin/avatars/{slug}", { params: { path: { slug } } });
      ctx.print(data);
    });
  avatars
    .command("create <slug>")
    .description("Create an avatar")
    .requiredOption("--name <name>", "its display name")
    .option("-s, --status <status>", `${STATUSES.join(", ")}`, "PUBLIC")
    .option("--season <seasonId>", "the season a SEASON_AWARD avatar belongs to")
    .option("--min-points <n>", "the points in that season that earn it")
    .option("--discord-only", "only for the Discord activity")
    .option("--image <file>", "a png, jpeg, webp or gif to upload as its picture")
    .json()
    .examples(
      "booth avatars create neon-cat --name 'Neon cat' --image ./neon-cat.png",
      "booth avatars create winter-crown --name 'Winter crown' -s SEASON_AWARD --season 0b5c... --min-points 100",
    )
    .run(async (ctx, slug: string, options: AvatarOptions) => {
      const body = await avatarBody(ctx, options);
      const { data } = await ctx.client.merch.POST("/avatars", {
        body: { slug, ...body, name: options.name ?? slug } as never,
      });
      ctx.print(data, () => `Created avatar ${data?.slug} (${data?.avatarStatus})`);
    });
  avatars
    .command("update <slug>")
    .description("Change an avatar ('none' clears --season or --min-points)")
    .option("--name <name>")
    .option("-s, --status <status>", `${STATUSES.join(", ")}`)
    .option("--season <seasonId>")
    .option("--min-points <n>")
    .option("--discord-only", "only for the Discord activity")
    .option("--no-discord-only", "for everyone")
    .option("--image <file>", "a new picture")
    .json()
    .examples(
      "booth avatars update neon-cat --name 'Neon cat II' -s PRIVATE",
      "booth avatars update winter-crown --min-points 150",
    )
    .run(async (ctx, slug: string, options: AvatarOptions) => {
      const body = await avatarBody(ctx, options);
      if (Object.keys(body).length === 0) throw new Error("nothing to change: give --name, --status, --season...");
      const { data } = await ctx.client.merch.PATCH("/avatars/{slug}", { params: { path: { slug } }, body });
      ctx.print(data, () => `Updated avatar ${data?.slug}`);
    });
  avatars
    .command("delete <slug>")
    .description("Delete an avatar and take it from everyone who has it")
    .examples("booth avatars delete neon-cat")
    .run(async (ctx, slug: string) => {
      await ctx.client.merch.DELETE("/avatars/{slug}", { params: { path: { slug } } });
      console.log(`Deleted avatar ${slug}`);
    });
  avatars
    .command("assign <slug> <userUuid>")
    .description("Give a user an avatar (or with --remove take it back)")
    .option("--remove", "take it back")
    .json()
    .examples("booth avatars assign neon-cat 5f0c2a8e-...", "booth avatars assign neon-cat 5f0c2a8e-... --remove")
    .run(async (ctx, slug: string, userUuid: string, options: { remove?: boolean }) => {
      if (options.remove) {
        const { data: held } = await ctx.client.merch.GET("/avatars/{slug}/{uuid}", {
          params: { path: { slug, uuid: userUuid } },
        });
        if (!held?.assignment) throw new Error(`${userUuid} does not have ${slug} assigned`);
        await ctx.client.merch.DELETE("/avatar-assignment/{avatarAssignmentId}", {
          params: { path: { avatarAssignmentId: held.assignment.id } },
        });
        ctx.print({ removed: held.assignment }, () => `Took ${slug} back from ${userUuid}`);
        return;
      }
      const { data } = await ctx.client.merch.POST("/avatar-assignment/{slug}", {
        params: { path: { slug } },
        body: { userUuid, assignmentType: "MANUAL" },
      });
      ctx.print(data, () => `Gave ${slug} to ${userUuid}`);
    });
  avatars
    .command("check <slug> <userUuid>")
    .description("Whether a user may wear an avatar, and how they got it")
    .json()
    .examples("booth avatars check winter-crown 5f0c2a8e-...")
    .run(async (ctx, slug: string, userUuid: string) => {
      const { data } = await ctx.client.merch.GET("/avatars/{slug}/{uuid}", {
        params: { path: { slug, uuid: userUuid } },
      });
      ctx.print(
        data,
        () =>
          `${data?.allowed ? "allowed" : "not allowed"}${data?.assignment ? ` (${data.assignment.assignmentType}, ${data.assignment.createdAt})` : ""}`,
      );
    });
}
