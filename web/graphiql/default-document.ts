/**
 * What GraphiQL's editor holds the first time it opens (afterwards GraphiQL
 * keeps the user's own tabs in the browser's local storage). Every operation
 * runs against the demo registry that `npm start` loads into a new database.
 * Comment lines stay short enough for the editor pane of a laptop screen
 * (about 56 characters).
 */
export const DEFAULT_DOCUMENT = `# The tool/resource registry. This GraphiQL is served
# by the registry itself: it needs no internet.
# Run an operation with ▶ (it asks which one), or put
# the cursor in it and press Ctrl-Enter (Cmd-Enter).
#
# Queries need no token. For mutations, paste yours in
# the Headers tab below, as JSON:
#   {"Authorization": "Bearer <token>"}
# Headers are not saved unless you turn on "Persist
# headers" in the settings (the gear, bottom left).

# 1. Which resource fills each slot of the demo tool
#    "demo/mixed" in project "demo"? One slot per mode:
#    - repo, CONTEXTUAL: a resource linked to the
#      project, found by type: demo links acme/app-repo
#      under the alias "repo".
#    - config, STATIC: the resource the tool names.
#    - output, PARAMETER: deferred until a resource is
#      given, e.g. add params: [{ slot: "output",
#        resource: "local/shared-config" }]
#    A slot that cannot bind fails the query with
#    BINDING_RESOLUTION_FAILED; extensions.problems
#    says why, slot by slot.
query ResolveDemoTool {
  resolveBindings(tool: "demo/mixed", project: "demo") {
    slotName
    bindingMode
    resourceId
    resource {
      name
      type { name }
    }
    deferred
    access
  }
}

# 2. The registered tools and their slots: the resource
#    type each slot needs (a resource of that type or of
#    any of its sub-types fits), the access it wants and
#    how it is bound.
query ToolsWithSlots {
  tools(first: 20) {
    totalCount
    edges {
      node {
        name
        description
        resourceSlots {
          name
          binding
          access
          required
          resourceType {
            name
            subtypes { name }
          }
          staticResource { name }
        }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}

# 3. What would unlinking acme/app-repo from demo do?
#    dryRun: true checks and computes everything, then
#    rolls back: nothing is stored. The impact lists
#    every slot whose binding would change (here
#    demo/mixed's repo slot would find nothing).
#    Every mutation takes dryRun and reports impact.
mutation PreviewUnlink {
  unlinkResource(
    input: { project: "demo", resource: "acme/app-repo" }
    dryRun: true
  ) {
    dryRun
    registryVersion
    impact {
      totalCount
      changes {
        toolName
        projectName
        slotName
        before { status resourceName }
        after { status reason }
      }
    }
  }
}

# 4. The change log: who changed what, and when, with
#    how many bindings each change moved. Filter by
#    kind, actor, version, or any name a thing had:
#    changes(filter: { ref: "acme/app-repo" })
query RecentChanges {
  changes(first: 20) {
    totalCount
    edges {
      node { version at actor operation summary impactCount }
    }
  }
}
`;
