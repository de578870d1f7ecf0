/**
 * Draws the app icons in web/public/icons (PNG, no image library): the dark background of the
 * theme, a green and a flag. Run again only when the artwork changes; the PNGs are committed.
 *
 *   bun scripts/make-icons.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [0x0f, 0x14, 0x12];
const GREEN: Rgb = [0x2f, 0x8f, 0x5b];
const POLE: Rgb = [0xf4, 0xf4, 0xf0];
const FLAG: Rgb = [0xf2, 0xc9, 0x4c];
const SUPERSAMPLE = 4;

/** The colour at a point of the unit square (0..1 both ways), `scale` shrinking the artwork toward the centre. */
function colourAt(x: number, y: number, scale: number): Rgb {
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  const isPole = u >= 0.47 && u <= 0.53 && v >= 0.2 && v <= 0.74;
  if (isPole) return POLE;
  const isFlag = u > 0.53 && v >= 0.2 && v <= 0.42 && u - 0.53 <= 0.26 * (1 - Math.abs(v - 0.31) / 0.11);
  if (isFlag) return FLAG;
  const isGreen = ((u - 0.5) / 0.34) ** 2 + ((v - 0.74) / 0.12) ** 2 <= 1;
  if (isGreen) return GREEN;
  return BACKGROUND;
}

function render(size: number, scale: number): Uint8Array {
  const rowLength = size * 3 + 1;
  const raw = new Uint8Array(rowLength * size);
  for (let py = 0; py < size; py++) {
    raw[py * rowLength] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const colour = colourAt((px + (sx + 0.5) / SUPERSAMPLE) / size, (py + (sy + 0.5) / SUPERSAMPLE) / size, scale);
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
        }
      }
      for (let c = 0; c < 3; c++) raw[py * rowLength + 1 + px * 3 + c] = Math.round(sum[c] / SUPERSAMPLE ** 2);
    }
  }
  return encodePng(size, raw);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = new Uint8Array(4 + data.length);
  typed.set(new TextEncoder().encode(type), 0);
  typed.set(data, 4);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typed, 4);
  view.setUint32(8 + data.length, Bun.hash.crc32(typed));
  return out;
}

function encodePng(size: number, raw: Uint8Array): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const dir = join(import.meta.dir, "..", "web", "public", "icons");
// "any" icons use the whole square; maskable ones keep the artwork inside the 80 % safe zone.
const icons = [
  { name: "icon-192.png", size: 192, scale: 1 },
  { name: "icon-512.png", size: 512, scale: 1 },
  { name: "maskable-512.png", size: 512, scale: 0.78 },
  { name: "apple-touch-icon.png", size: 180, scale: 0.9 },
  { name: "favicon-32.png", size: 32, scale: 1 },
];
for (const icon of icons) {
  writeFileSync(join(dir, icon.name), render(icon.size, icon.scale));
  console.log(`web/public/icons/${icon.name}`);
}
