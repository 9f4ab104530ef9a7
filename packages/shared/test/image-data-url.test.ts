import { describe, expect, it } from "vitest";
import { clientProfileImageUrlSchema, isDataUrl, logoUrlSchema, parseImageDataUrl, profileImageUrlSchema } from "../src/index.ts";

const PNG_START = "iVBORw0KGgoA"; // the PNG signature and a zero byte
const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

describe("parseImageDataUrl", () => {
  it("takes PNG, JPEG, GIF and WebP whose first bytes match, with parameters and in any case", () => {
    expect(parseImageDataUrl(`data:image/png;base64,${PNG_START}`)).toMatchObject({ contentType: "image/png" });
    expect(parseImageDataUrl(`DATA:Image/PNG;name=a.png;BASE64,${PNG_START}`)).toMatchObject({ contentType: "image/png" });
    expect(parseImageDataUrl(`data:image/jpg;base64,${b64([0xff, 0xd8, 0xff, 0xe0])}`)).toMatchObject({ contentType: "image/jpeg" });
    expect(parseImageDataUrl(`data:image/gif;base64,${btoa("GIF87a")}`)).toMatchObject({ contentType: "image/gif" });
    expect(parseImageDataUrl(`data:image/webp;base64,${btoa("RIFF\0\0\0\0WEBP")}`)).toMatchObject({ contentType: "image/webp" });
    const png = parseImageDataUrl(`data:image/png;base64,${PNG_START}`);
    expect("bytes" in png && [...png.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  });

  it("refuses SVG, other types, content of another type, and what is not base64", () => {
    const problem = (value: string) => (parseImageDataUrl(value) as { problem?: string }).problem;
    expect(problem(`data:image/svg+xml;base64,${btoa("<svg/>")}`)).toContain('"image/svg+xml" is not taken');
    expect(problem(`data:;base64,${PNG_START}`)).toContain('"text/plain" is not taken');
    expect(problem(`data:image/webp;base64,${btoa("RIFF\0\0\0\0WAVE")}`)).toContain("does not hold a image/webp image");
    expect(problem(`data:image/png;base64,${btoa("<html>")}`)).toContain("does not hold a image/png image");
    expect(problem("data:image/png,%89PNG")).toContain("base64-encoded");
    expect(problem("data:image/png;base64,iVBO*w0K")).toContain("is not valid base64");
    expect(problem("https://example.com/a.png")).toContain("must be an image as a data: URL");
    expect(isDataUrl("https://example.com/a.png")).toBe(false);
  });
});

describe("the image URL schemas", () => {
  const png = `data:image/png;base64,${PNG_START}`;
  const svg = `data:image/svg+xml;base64,${btoa("<svg/>")}`;

  it("a client sends only an image data: URL, or null", () => {
    expect(clientProfileImageUrlSchema.safeParse(png).success).toBe(true);
    expect(clientProfileImageUrlSchema.safeParse(null).success).toBe(true);
    expect(clientProfileImageUrlSchema.safeParse("https://example.com/a.png").success).toBe(false);
    expect(clientProfileImageUrlSchema.safeParse(svg).success).toBe(false);
  });

  it("a server sends any URL, but a data: URL must be an image; logos likewise, under 100KB", () => {
    for (const schema of [profileImageUrlSchema, logoUrlSchema]) {
      expect(schema.safeParse("https://example.com/a.png").success).toBe(true);
      expect(schema.safeParse(png).success).toBe(true);
      expect(schema.safeParse(svg).success).toBe(false);
      expect(schema.safeParse(`data:image/png;base64,${PNG_START}${"A".repeat(100 * 1024)}`).success).toBe(false);
    }
  });
});
