"""Render a PDF's pages into one PNG contact sheet, for looking at what Muster prints (a developer's tool)."""

import argparse

import pypdfium2 as pdfium
from PIL import Image


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("out")
    ap.add_argument("--dpi", type=float, default=45)
    ap.add_argument("--cols", type=int, default=4)
    ap.add_argument("--pages", default="", help="e.g. 1-4 (1-based)")
    args = ap.parse_args()
    pdf = pdfium.PdfDocument(args.pdf)
    pages = range(len(pdf))
    if args.pages:
        a, _, b = args.pages.partition("-")
        pages = range(int(a) - 1, min(int(b or a), len(pdf)))
        if not pages:
            raise SystemExit(f"{args.pdf} has {len(pdf)} pages; --pages {args.pages} names none of them")
    imgs = [pdf[i].render(scale=args.dpi / 72).to_pil() for i in pages]
    w = max(i.width for i in imgs)
    h = max(i.height for i in imgs)
    cols = min(args.cols, len(imgs))
    rows = (len(imgs) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (w + 8), rows * (h + 8)), "#777")
    for n, img in enumerate(imgs):
        sheet.paste(img, ((n % cols) * (w + 8) + 4, (n // cols) * (h + 8) + 4))
    sheet.save(args.out)
    print(f"{len(imgs)} pages -> {args.out}")


if __name__ == "__main__":
    main()
