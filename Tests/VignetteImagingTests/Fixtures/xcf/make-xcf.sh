#!/usr/bin/env bash
# Makes the XCF test documents with GIMP itself (gimp-console 2.10, Debian 12's `gimp` package),
# each beside GIMP's own merge of its visible layers as a PNG (`*.gimp.png`): the reference the
# tests hold Vignette's compositing to. Run from this folder; the outputs are committed, so the
# suite needs no GIMP. The document: a 300 x 200 canvas over a blue-to-orange gradient; a
# red disc at 60 % opacity hanging off the top-left corner; a hidden green square (it must not
# show); a grey band in legacy Multiply; a yellow layer faded out left to right by a mask; a
# group holding a magenta square and a cyan ellipse, at 80 %; and a floating-free, offset layer
# reaching past the right edge; then all of it is scaled to 150 x 100. It is saved as 8-bit (RLE tiles), then converted and saved again as
# 16-bit perceptual integers, 32-bit linear floats, greyscale and indexed (its group merged first:
# GIMP converts no image with a group to indexed). A second document, modes-u8, has a stripe in
# each separable layer mode, 2.10's and legacy; a third, modes-more-u8, one in each of 2.10's
# other colour modes (vivid light to linear burn, luma, luminance, HSV and HSL, LCH), in the
# legacy HSV and HSL modes, and in Erase, Merge and Split; clip-to-layer-u8 and intersection-u8
# a layer composited clipped to itself and intersected.
set -euo pipefail
cd "$(dirname "$0")"
gimp-console-2.10 -i -d -f --batch-interpreter plug-in-script-fu-eval -b - <<'SCHEME'
(define the-group 0)
(define (layer image name w h x y opacity mode parent pos)
  (let ((l (car (gimp-layer-new image w h RGBA-IMAGE name opacity mode))))
    (gimp-image-insert-layer image l parent pos)
    (gimp-layer-set-offsets l x y)
    l))
(define (fill-rect image l colour x y w h)
  (gimp-context-set-foreground colour)
  (gimp-image-select-rectangle image CHANNEL-OP-REPLACE x y w h)
  (gimp-drawable-edit-fill l FILL-FOREGROUND)
  (gimp-selection-none image))
(define (fill-ellipse image l colour x y w h)
  (gimp-context-set-foreground colour)
  (gimp-image-select-ellipse image CHANNEL-OP-REPLACE x y w h)
  (gimp-drawable-edit-fill l FILL-FOREGROUND)
  (gimp-selection-none image))
(define (save image base)
  (let ((copy (car (gimp-image-duplicate image))))
    (gimp-xcf-save 0 image (car (gimp-image-get-active-drawable image)) (string-append base ".xcf") (string-append base ".xcf"))
    ; an indexed image's layers are composited in RGB, as GIMP's canvas shows them (a merge of the
    ; indexed image itself would snap the blended pixels to the palette)
    (if (= (car (gimp-image-base-type copy)) INDEXED) (gimp-image-convert-rgb copy))
    (gimp-image-merge-visible-layers copy CLIP-TO-IMAGE)
    (if (not (= (car (gimp-image-get-precision copy)) PRECISION-U8-GAMMA)) (gimp-image-convert-precision copy PRECISION-U8-GAMMA))
    (file-png-save2 RUN-NONINTERACTIVE copy (car (gimp-image-get-active-drawable copy)) (string-append base ".gimp.png")
                    (string-append base ".gimp.png") 0 9 0 0 0 0 0 0 0)
    (gimp-image-delete copy)))
(let* ((image (car (gimp-image-new 300 200 RGB)))
       (bg (car (gimp-layer-new image 300 200 RGB-IMAGE "background" 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer image bg 0 0)
  (gimp-context-set-foreground '(30 60 200))
  (gimp-context-set-background '(250 150 40))
  (gimp-context-set-gradient-fg-bg-rgb)
  (gimp-drawable-edit-gradient-fill bg GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 300 200)
  (let ((disc (layer image "disc" 120 120 -30 -30 60 LAYER-MODE-NORMAL 0 0)))
    (fill-ellipse image disc '(220 20 20) -30 -30 120 120))
  (let ((hidden (layer image "hidden" 80 80 110 60 100 LAYER-MODE-NORMAL 0 0)))
    (fill-rect image hidden '(0 255 0) 110 60 80 80)
    (gimp-item-set-visible hidden FALSE))
  (let ((band (layer image "band" 300 50 0 140 100 LAYER-MODE-MULTIPLY-LEGACY 0 0)))
    (fill-rect image band '(128 128 128) 0 140 300 50))
  (let* ((yellow (layer image "faded" 140 90 150 10 100 LAYER-MODE-NORMAL 0 0))
         (mask (car (gimp-layer-create-mask yellow ADD-MASK-WHITE))))
    (fill-rect image yellow '(250 230 0) 150 10 140 90)
    (gimp-layer-add-mask yellow mask)
    (gimp-context-set-foreground '(0 0 0))
    (gimp-context-set-background '(255 255 255))
    (gimp-context-set-gradient-fg-bg-rgb)
    (gimp-drawable-edit-gradient-fill mask GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 140 0))
  (let ((group (car (gimp-layer-group-new image))))
    (gimp-image-insert-layer image group 0 0)
    (set! the-group group)
    (gimp-layer-set-opacity group 80)
    (let ((square (layer image "square" 60 60 40 90 100 LAYER-MODE-NORMAL group 0))
          (ellipse (layer image "ellipse" 90 50 70 110 100 LAYER-MODE-NORMAL group 0)))
      (fill-rect image square '(230 0 230) 40 90 60 60)
      (fill-ellipse image ellipse '(0 220 230) 70 110 90 50)))
  (let ((edge (layer image "edge" 60 60 270 120 100 LAYER-MODE-NORMAL 0 0)))
    (fill-rect image edge '(255 255 255) 270 120 60 60))
  ; shrunk to 150 x 100 (layers, offsets and masks with it) to keep the files small
  (gimp-image-scale image 150 100)
  (save image "layers-u8")
  (gimp-image-convert-precision image PRECISION-U16-GAMMA)
  (save image "layers-u16")
  (gimp-image-convert-precision image PRECISION-FLOAT-LINEAR)
  (save image "layers-float-linear")
  (gimp-image-convert-precision image PRECISION-U8-GAMMA)
  (gimp-image-convert-grayscale image)
  (save image "layers-grey")
  (gimp-image-convert-rgb image)
  ; GIMP converts no image with a layer group to indexed: the group is merged first
  (gimp-image-merge-layer-group image the-group)
  (gimp-image-convert-indexed image CONVERT-DITHER-NONE CONVERT-PALETTE-GENERATE 64 FALSE FALSE "")
  (save image "layers-indexed"))
; Every separable mode: 15 stripes, 10 pixels wide, of a layer in that mode over a gradient: the
; top row GIMP 2.10's modes, the bottom row their legacy twins, each at 80 % opacity; the
; multiply stripe of the top row set to composite as a union (the mode's default clips).
(let* ((image (car (gimp-image-new 150 40 RGB)))
       (bg (car (gimp-layer-new image 150 40 RGB-IMAGE "background" 100 LAYER-MODE-NORMAL)))
       (modes (list LAYER-MODE-MULTIPLY LAYER-MODE-SCREEN LAYER-MODE-OVERLAY LAYER-MODE-DIFFERENCE LAYER-MODE-ADDITION
                    LAYER-MODE-SUBTRACT LAYER-MODE-DARKEN-ONLY LAYER-MODE-LIGHTEN-ONLY LAYER-MODE-DIVIDE LAYER-MODE-DODGE
                    LAYER-MODE-BURN LAYER-MODE-HARDLIGHT LAYER-MODE-SOFTLIGHT LAYER-MODE-GRAIN-EXTRACT LAYER-MODE-GRAIN-MERGE))
       (legacy (list LAYER-MODE-MULTIPLY-LEGACY LAYER-MODE-SCREEN-LEGACY LAYER-MODE-SOFTLIGHT-LEGACY LAYER-MODE-DIFFERENCE-LEGACY
                     LAYER-MODE-ADDITION-LEGACY LAYER-MODE-SUBTRACT-LEGACY LAYER-MODE-DARKEN-ONLY-LEGACY
                     LAYER-MODE-LIGHTEN-ONLY-LEGACY LAYER-MODE-DIVIDE-LEGACY LAYER-MODE-DODGE-LEGACY LAYER-MODE-BURN-LEGACY
                     LAYER-MODE-HARDLIGHT-LEGACY LAYER-MODE-SOFTLIGHT-LEGACY LAYER-MODE-GRAIN-EXTRACT-LEGACY
                     LAYER-MODE-GRAIN-MERGE-LEGACY)))
  (gimp-image-insert-layer image bg 0 0)
  (gimp-context-set-foreground '(20 40 90))
  (gimp-context-set-background '(240 230 200))
  (gimp-context-set-gradient-fg-bg-rgb)
  (gimp-drawable-edit-gradient-fill bg GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 150 40)
  (define (stripes modes y i)
    (if (pair? modes)
        (let ((l (layer image "stripe" 10 20 (* i 10) y 80 (car modes) 0 0)))
          (fill-rect image l '(200 120 60) (* i 10) y 10 20)
          (if (and (= y 0) (= i 0)) (gimp-layer-set-composite-mode l LAYER-COMPOSITE-UNION))
          (stripes (cdr modes) y (+ i 1)))))
  (stripes modes 0 0)
  (stripes legacy 20 0)
  (save image "modes-u8"))
; The modes that are not separable or came with 2.10 after the first ones: 17 stripes over a
; gradient from crimson to green, the top row orange at 80 %, the middle row sky blue at 50 %;
; below them the legacy HSV and HSL modes, orange at 80 % and sky blue at 50 %; at the bottom
; Erase, Merge and Split (orange at 80 %, sky blue at 50 %), then Merge clipped to the backdrop
; and Split as a union, orange at 80 %.
(let* ((image (car (gimp-image-new 170 80 RGB)))
       (bg (car (gimp-layer-new image 170 80 RGB-IMAGE "background" 100 LAYER-MODE-NORMAL)))
       (legacy (list LAYER-MODE-HSV-HUE-LEGACY LAYER-MODE-HSV-SATURATION-LEGACY LAYER-MODE-HSL-COLOR-LEGACY
                     LAYER-MODE-HSV-VALUE-LEGACY))
       (modes (list LAYER-MODE-VIVID-LIGHT LAYER-MODE-PIN-LIGHT LAYER-MODE-LINEAR-LIGHT LAYER-MODE-HARD-MIX
                    LAYER-MODE-EXCLUSION LAYER-MODE-LINEAR-BURN LAYER-MODE-LUMA-DARKEN-ONLY LAYER-MODE-LUMA-LIGHTEN-ONLY
                    LAYER-MODE-LUMINANCE LAYER-MODE-HSV-HUE LAYER-MODE-HSV-SATURATION LAYER-MODE-HSL-COLOR
                    LAYER-MODE-HSV-VALUE LAYER-MODE-LCH-HUE LAYER-MODE-LCH-CHROMA LAYER-MODE-LCH-COLOR
                    LAYER-MODE-LCH-LIGHTNESS)))
  (gimp-image-insert-layer image bg 0 0)
  (gimp-context-set-foreground '(200 30 60))
  (gimp-context-set-background '(40 200 120))
  (gimp-context-set-gradient-fg-bg-rgb)
  (gimp-drawable-edit-gradient-fill bg GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 170 80)
  (define (stripes modes y i colour opacity)
    (if (pair? modes)
        (let ((l (layer image "stripe" 10 20 (* i 10) y opacity (car modes) 0 0)))
          (fill-rect image l colour (* i 10) y 10 20)
          (stripes (cdr modes) y (+ i 1) colour opacity))))
  (stripes modes 0 0 '(200 120 60) 80)
  (stripes modes 20 0 '(90 170 230) 50)
  (stripes legacy 40 0 '(200 120 60) 80)
  (stripes legacy 40 4 '(90 170 230) 50)
  (stripes (list LAYER-MODE-ERASE LAYER-MODE-MERGE LAYER-MODE-SPLIT) 60 0 '(200 120 60) 80)
  (stripes (list LAYER-MODE-ERASE LAYER-MODE-MERGE LAYER-MODE-SPLIT) 60 3 '(90 170 230) 50)
  (define (composited mode composite i)
    (let ((l (layer image "stripe" 10 20 (* i 10) 60 80 mode 0 0)))
      (fill-rect image l '(200 120 60) (* i 10) 60 10 20)
      (gimp-layer-set-composite-mode l composite)))
  (composited LAYER-MODE-MERGE LAYER-COMPOSITE-CLIP-TO-BACKDROP 6)
  (composited LAYER-MODE-SPLIT LAYER-COMPOSITE-UNION 7)
  (save image "modes-more-u8"))
; A layer composited clipped to itself, or intersected, keeps only its own part of the canvas:
; over a gradient and an orange square, a disc on a 30 x 20 layer, Normal at 80 %.
(define (clipped-document composite base)
  (let* ((image (car (gimp-image-new 60 40 RGB)))
         (bg (car (gimp-layer-new image 60 40 RGB-IMAGE "background" 100 LAYER-MODE-NORMAL))))
    (gimp-image-insert-layer image bg 0 0)
    (gimp-context-set-foreground '(30 60 200))
    (gimp-context-set-background '(250 150 40))
    (gimp-context-set-gradient-fg-bg-rgb)
    (gimp-drawable-edit-gradient-fill bg GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 60 40)
    (let ((square (layer image "square" 20 30 5 5 100 LAYER-MODE-NORMAL 0 0)))
      (fill-rect image square '(200 120 60) 5 5 20 30))
    (let ((disc (layer image "disc" 30 20 20 10 80 LAYER-MODE-NORMAL 0 0)))
      (fill-ellipse image disc '(90 170 230) 20 10 30 20)
      (gimp-layer-set-composite-mode disc composite))
    (save image base)))
(clipped-document LAYER-COMPOSITE-CLIP-TO-LAYER "clip-to-layer-u8")
(clipped-document LAYER-COMPOSITE-INTERSECTION "intersection-u8")
(gimp-quit 0)
SCHEME
