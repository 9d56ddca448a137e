/** Grants, scopes, grant sets and sound path containment. */
module finch.capabilities {
    requires transitive finch.ir;
    exports dev.finch.capabilities;
}
