// The newcomer's first try: each row built in a scope and handed to
// `from_rows_in` as the scope's temporary. The temporary cannot leave its
// scope. Write the rows with `FrameRows::writer_in` instead: open a row,
// and inside the scope extend the open row from the temporary (or use the
// open row itself as the temporary: push, sort, truncate).
use tickarena::{FrameArena, FrameRows};

fn main() {
    let arena = FrameArena::new();
    let units = [3u32, 8, 9, 20];
    let near = FrameRows::from_rows_in(
        units.iter().map(|&a| {
            tickarena::scoped(|temp| {
                let mut found = Vec::new_in(temp);
                found.extend(units.iter().copied().filter(|&b| b != a));
                found.sort_unstable_by_key(|&b| a.abs_diff(b));
                found.truncate(2);
                found.into_iter()
            })
        }),
        &arena,
    );
    assert_eq!(near.len(), 4);
}
