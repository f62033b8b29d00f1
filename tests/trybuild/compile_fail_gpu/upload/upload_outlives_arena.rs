// An upload cannot outlive the borrow of its arena.
use tickarena::gpu::{Upload, UploadArena};

fn keep(mut arena: UploadArena) -> Upload<'static> {
    let mut frame = arena.begin_frame().unwrap();
    frame.upload_slice(&[1u32]).unwrap()
}

fn main() {
    let _ = keep;
}
