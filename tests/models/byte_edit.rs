//! Mutations of an encoded (postcard) document, shared by the serde
//! oracles (`tests/all/serde_oracle.rs`, `tests/all/serde_attrs_oracle.rs`):
//! bytes flipped, inserted, deleted, the document truncated.

use proptest::prelude::*;

/// One change to a postcard document; positions are taken modulo its length.
#[derive(Clone, Debug)]
pub enum ByteEdit {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

/// Any one [`ByteEdit`].
pub fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        (any::<usize>(), 1..=u8::MAX).prop_map(|(at, mask)| ByteEdit::Flip(at, mask)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| ByteEdit::Insert(at, byte)),
        any::<usize>().prop_map(ByteEdit::Delete),
        any::<usize>().prop_map(ByteEdit::Truncate),
    ]
}

/// `edit` applied to `bytes` (an edit of a position in an empty document
/// does nothing).
pub fn apply_bytes(bytes: &mut Vec<u8>, edit: &ByteEdit) {
    let len = bytes.len();
    match *edit {
        ByteEdit::Flip(at, mask) if len > 0 => bytes[at % len] ^= mask,
        ByteEdit::Insert(at, byte) => bytes.insert(at % (len + 1), byte),
        ByteEdit::Delete(at) if len > 0 => {
            bytes.remove(at % len);
        }
        ByteEdit::Truncate(at) => bytes.truncate(at % (len + 1)),
        _ => {}
    }
}
