// An option the derive does not know is an error, not ignored.
#[derive(tickarena::FrameData)]
#[frame_data(invariant)]
struct LabelsOf<'f> {
    labels: &'f [&'f str],
}

fn main() {}
