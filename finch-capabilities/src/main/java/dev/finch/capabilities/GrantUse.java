package dev.finch.capabilities;

/**
 * The result of using a grant set for one requirement: the grant that authorized it, and the set to keep using
 * (without that grant when it was {@link Scope#ONCE}).
 *
 * @param grant     the grant that permitted the requirement
 * @param remaining the grant set after this use
 */
public record GrantUse(Grant grant, GrantSet remaining) {}
