//! tickarena-bevy's README, compiled as a user compiles it: its code
//! blocks are this crate's doctests (`cargo test -p tickarena-bevy-readme`),
//! and this crate depends on tickarena-bevy and the Bevy crates the README
//! names, not on tickarena. So `#[derive(FrameData)]`, imported from
//! `tickarena_bevy`, must find tickarena through tickarena-bevy, as in a
//! game. The README is included as it is: the two cannot drift apart.

#![doc = include_str!("../../../../tickarena-bevy/README.md")]

// Used by the doctests only, which cargo's unused-dependency check does
// not see.
use bevy_app as _;
use bevy_diagnostic as _;
use bevy_ecs as _;
use tickarena_bevy as _;

#[cfg(test)]
mod tests {
    /// The `[dependencies]` keys of a manifest's text.
    fn dependencies(toml: &str) -> Vec<String> {
        let mut in_table = false;
        let mut names = Vec::new();
        for line in toml.lines().map(str::trim) {
            if line.starts_with('[') {
                in_table = line == "[dependencies]";
            } else if in_table && let Some((key, _)) = line.split_once('=') {
                names.push(key.trim().to_owned());
            }
        }
        names
    }

    /// The README's text between its `## Quickstart` heading and the next.
    fn quickstart(readme: &str) -> &str {
        let start = readme.find("## Quickstart").expect("a Quickstart section");
        let rest = &readme[start + 2..];
        &rest[..rest.find("\n## ").unwrap_or(rest.len())]
    }

    #[test]
    fn this_crate_has_what_the_readme_says_to_add_and_no_tickarena() {
        let readme = include_str!("../../../../tickarena-bevy/README.md");
        let manifest = include_str!("../Cargo.toml");
        let ours = dependencies(manifest);
        assert!(
            !ours.iter().any(|name| name == "tickarena"),
            "tickarena would hide the derives' path"
        );
        let quickstart = quickstart(readme);
        let toml = quickstart
            .split("```toml")
            .nth(1)
            .and_then(|block| block.split("```").next())
            .expect("the quickstart's Cargo.toml block");
        let told = dependencies(toml);
        assert!(told.contains(&"tickarena-bevy".to_owned()), "{told:?}");
        // Every crate the quickstart's code names is one it says to add.
        for name in ["bevy_app", "bevy_ecs", "tickarena_bevy"] {
            if quickstart.contains(&format!("use {name}")) {
                assert!(
                    told.contains(&name.replace('_', "-")) || told.contains(&name.to_owned()),
                    "the quickstart uses {name} without adding it: {told:?}"
                );
            }
        }
        // And this crate depends on what the README says, and on the
        // crates its later sections use.
        for name in &ours {
            assert!(
                told.contains(name) || readme.contains(&format!("use {name}")),
                "{name} is in no part of the README"
            );
        }
        for name in &told {
            assert!(
                ours.contains(name),
                "the README adds {name}; this crate does not"
            );
        }
    }
}
