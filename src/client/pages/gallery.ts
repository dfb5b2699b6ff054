// The home page's gallery: six models rendered by the shop's own preview renderer (scripts/make-gallery.ts).
export const GALLERY = [
  { src: '/gallery/01-vase.png', caption: 'Spiral vase', alt: 'A blue spiral vase, 3D printed' },
  { src: '/gallery/02-gear.png', caption: 'Spur gear', alt: 'A red spur gear with twenty teeth, 3D printed' },
  { src: '/gallery/03-tower.png', caption: 'Twisted tower', alt: 'A green twisted square tower, 3D printed' },
  { src: '/gallery/04-knot.png', caption: 'Torus knot', alt: 'A yellow torus knot sculpture, 3D printed' },
  {
    src: '/gallery/05-rook.png',
    caption: 'Chess rook',
    alt: 'A black chess rook with battlements, 3D printed',
  },
  { src: '/gallery/06-tray.png', caption: 'Honeycomb tray', alt: 'A gray honeycomb desk tray, 3D printed' },
] as const;
