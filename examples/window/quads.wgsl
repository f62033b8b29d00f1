// The demo's two pipelines: the scene as instanced quads (rectangles,
// discs and rings, each a 32-byte instance in window pixels), then the
// overlay (text, panel, chart), rasterized on the CPU into a premultiplied
// BGRA image, over the whole window. That image's texture is RGBA (WebGL2
// has no BGRA textures): its red and blue are swapped back here.

struct Screen {
    // The window's size in pixels.
    size: vec2<f32>,
    // 1 when the surface is sRGB (the demo's colours are already encoded,
    // so they are decoded first and the surface encodes them back).
    srgb: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> screen: Screen;
@group(0) @binding(1) var overlay: texture_2d<f32>;

struct Quad {
    @builtin(position) position: vec4<f32>,
    // The fragment's offset from the quad's centre, in pixels.
    @location(0) local: vec2<f32>,
    @location(1) @interpolate(flat) color: u32,
    @location(2) @interpolate(flat) shape: u32,
    @location(3) @interpolate(flat) radius: f32,
    @location(4) @interpolate(flat) inner: f32,
}

const RECT: u32 = 0u;
const DISC: u32 = 1u;
const RING: u32 = 2u;

@vertex
fn quad_vertex(
    @builtin(vertex_index) corner: u32,
    @location(0) center: vec2<f32>,
    @location(1) half: vec2<f32>,
    @location(2) color: u32,
    @location(3) shape: u32,
    @location(4) inner: f32,
) -> Quad {
    // A triangle strip over the corners (-1,-1), (1,-1), (-1,1), (1,1).
    let unit = vec2<f32>(f32(corner & 1u), f32(corner >> 1u)) * 2.0 - 1.0;
    let local = unit * half;
    let pixel = center + local;
    var out: Quad;
    out.position = vec4<f32>(pixel.x / screen.size.x * 2.0 - 1.0, 1.0 - pixel.y / screen.size.y * 2.0, 0.0, 1.0);
    out.local = local;
    out.color = color;
    out.shape = shape;
    // Round shapes are centred on a pixel's centre, half a pixel wider
    // than their radius.
    out.radius = half.x - 0.5;
    out.inner = inner;
    return out;
}

fn decode(color: vec3<f32>) -> vec3<f32> {
    if screen.srgb == 0u {
        return color;
    }
    return select(pow((color + 0.055) / 1.055, vec3<f32>(2.4)), color / 12.92, color <= vec3<f32>(0.04045));
}

@fragment
fn quad_fragment(in: Quad) -> @location(0) vec4<f32> {
    // The CPU canvas's rule: the pixel (dx, dy) off the centre is in a disc
    // of radius r when dx² + dy² <= r² + r (the local offsets of pixel
    // centres are whole numbers).
    let d = dot(in.local, in.local);
    let r = in.radius;
    if in.shape != RECT && d > r * r + r + 0.25 {
        discard;
    }
    // A ring leaves out the disc of its inner radius: d <= k, but not the
    // pixels straight above and below with d == k (the canvas's rows).
    let k = in.inner * in.inner - in.inner;
    if in.shape == RING && in.inner > 0.0 && (d < k - 0.5 || (abs(d - k) < 0.25 && abs(in.local.x) > 0.25)) {
        discard;
    }
    let c = vec3<f32>(f32((in.color >> 16u) & 255u), f32((in.color >> 8u) & 255u), f32(in.color & 255u)) / 255.0;
    return vec4<f32>(decode(c), 1.0);
}

struct Full {
    @builtin(position) position: vec4<f32>,
}

@vertex
fn overlay_vertex(@builtin(vertex_index) index: u32) -> Full {
    // One triangle over the whole window.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: Full;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

@fragment
fn overlay_fragment(in: Full) -> @location(0) vec4<f32> {
    // The overlay image has the window's pixels one for one (its rows
    // may be longer: padded for the copy).
    let texel = textureLoad(overlay, vec2<i32>(in.position.xy), 0).bgra;
    if texel.a <= 0.0 {
        discard;
    }
    // Premultiplied: decode the colour, not the coverage.
    return vec4<f32>(decode(texel.rgb / texel.a) * texel.a, texel.a);
}
