import { expect } from 'chai';
import {
  authorize,
  canSeeChange,
  canSeeGrant,
  canSeeToken,
  checkNamespace,
  checkPrincipal,
  describeRefusal,
  entryNamespace,
  EVERY_NAMESPACE,
  includesRole,
  MUTATION_RULES,
  namespaceOf,
  ownedNamespaces,
  requirementsOf,
  requirementsOn,
  roleOn,
  ruleOf,
  type Grant,
  type Role,
} from '../../src/core/access';
import { namespacesOfEdit, namespacesOfEdits, type RegistryEdit } from '../../src/core/registry-edit';

const grant = (role: Role, namespace: string, principal = 'user:alice'): Grant => ({ principal, role, namespace });
const entity = (name: string) => ({ id: `id-${name}`, name, description: null });
const resource = (name: string) => ({ ...entity(name), shortName: name.split('/').pop()!, typeId: 't' });

describe('access', () => {
  describe('namespaceOf', () => {
    it('is the first segment of a name with a "/"', () => {
      expect(namespaceOf('acme/app-repo')).to.equal('acme');
      expect(namespaceOf('globex/db/orders')).to.equal('globex');
    });
    it('is the global scope, *, for a name without a "/"', () => {
      expect(namespaceOf('demo')).to.equal(EVERY_NAMESPACE);
      expect(namespaceOf('git-checkout')).to.equal(EVERY_NAMESPACE);
    });
    it('ignores case, as names do', () => {
      expect(namespaceOf('ACME/x')).to.equal('acme');
    });
  });

  describe('includesRole', () => {
    it('orders the roles VIEWER < EDITOR < OWNER, each including the ones before it', () => {
      expect(includesRole('OWNER', 'EDITOR')).to.equal(true);
      expect(includesRole('OWNER', 'VIEWER')).to.equal(true);
      expect(includesRole('EDITOR', 'VIEWER')).to.equal(true);
      expect(includesRole('EDITOR', 'EDITOR')).to.equal(true);
      expect(includesRole('EDITOR', 'OWNER')).to.equal(false);
      expect(includesRole('VIEWER', 'EDITOR')).to.equal(false);
      expect(includesRole(null, 'VIEWER')).to.equal(false);
    });
  });

  describe('roleOn', () => {
    it('is the highest role granted on the namespace', () => {
      expect(roleOn([grant('VIEWER', 'acme'), grant('OWNER', 'acme'), grant('EDITOR', 'acme')], 'acme')).to.equal(
        'OWNER',
      );
    });
    it('counts grants on * for every namespace', () => {
      expect(roleOn([grant('EDITOR', '*')], 'acme')).to.equal('EDITOR');
      expect(roleOn([grant('VIEWER', '*'), grant('OWNER', 'acme')], 'acme')).to.equal('OWNER');
    });
    it('lets only grants on * reach the global scope', () => {
      expect(roleOn([grant('OWNER', 'acme')], EVERY_NAMESPACE)).to.equal(null);
      expect(roleOn([grant('EDITOR', '*')], EVERY_NAMESPACE)).to.equal('EDITOR');
    });
    it('gives nothing on another namespace', () => {
      expect(roleOn([grant('OWNER', 'acme')], 'globex')).to.equal(null);
    });
    it('compares namespaces ignoring case', () => {
      expect(roleOn([grant('EDITOR', 'acme')], 'ACME')).to.equal('EDITOR');
    });
  });

  describe('checkNamespace', () => {
    it('accepts * and one name segment', () => {
      for (const ok of ['*', 'acme', 'Acme.io', 'team_1-a']) expect(checkNamespace(ok), ok).to.equal(null);
    });
    it('refuses several segments, spaces, an empty or an overlong namespace', () => {
      for (const bad of ['acme/x', 'a b', '', '**', 'x'.repeat(101)])
        expect(checkNamespace(bad), bad).to.be.a('string');
    });
  });

  describe('checkPrincipal', () => {
    it('accepts user:, group: and token: principals', () => {
      for (const ok of ['user:alice', 'user:auth0|1234', 'group:platform-admins', 'token:ci-acme'])
        expect(checkPrincipal(ok), ok).to.equal(null);
    });
    it('refuses other kinds, an empty name, control characters and a token name outside its grammar', () => {
      for (const bad of [
        'alice',
        'admin:x',
        'user:',
        'user:a\nb',
        'user: alice',
        'token:a b',
        `user:${'x'.repeat(200)}`,
      ])
        expect(checkPrincipal(bad), bad).to.be.a('string');
    });
  });

  describe('MUTATION_RULES', () => {
    it('needs EDITOR on * for every resource type mutation', () => {
      for (const field of ['registerResourceType', 'updateResourceType', 'deleteResourceType'])
        expect(MUTATION_RULES[field], field).to.include({ role: 'EDITOR', scope: 'global' });
    });
    it('needs OWNER for grants and tokens', () => {
      for (const field of ['grantRole', 'revokeRole', 'createApiToken', 'revokeApiToken'])
        expect(MUTATION_RULES[field].role, field).to.equal('OWNER');
    });
    it('has no rule for a name that is not a mutation, nor for an inherited property', () => {
      expect(ruleOf('deleteEverything')).to.equal(null);
      expect(ruleOf('toString')).to.equal(null);
      expect(ruleOf('__proto__')).to.equal(null);
    });
  });

  describe('namespacesOfEdit', () => {
    it('is the namespace of a thing before and after a rename', () => {
      const edit: RegistryEdit = { kind: 'RESOURCE', before: resource('acme/db'), after: resource('globex/db') };
      expect(namespacesOfEdit(edit).map((n) => n.namespace)).to.deep.equal(['acme', 'globex']);
    });
    it("is a link's project's namespace, not its resource's", () => {
      const edit: RegistryEdit = {
        kind: 'LINK',
        before: null,
        after: { project: entity('acme/app'), resource: resource('globex/db'), alias: null },
      };
      expect(namespacesOfEdit(edit).map((n) => n.namespace)).to.deep.equal(['acme']);
    });
    it('is * for a resource type, whatever its name', () => {
      const edit: RegistryEdit = {
        kind: 'RESOURCE_TYPE',
        before: null,
        after: { id: 't', name: 'git-checkout', description: null, parentIds: [] },
      };
      expect(namespacesOfEdit(edit)).to.deep.equal([{ namespace: '*', role: null }]);
    });
    it("is a grant's namespace, with the role it grants", () => {
      const edit: RegistryEdit = {
        kind: 'GRANT',
        before: null,
        after: { id: 'g', principal: 'user:bob', role: 'OWNER', namespace: 'acme', grantedBy: 'x', createdAt: 'now' },
      };
      expect(namespacesOfEdit(edit)).to.deep.equal([{ namespace: 'acme', role: 'OWNER' }]);
    });
  });

  describe('authorize', () => {
    const rename: RegistryEdit = { kind: 'TOOL', before: { ...entity('acme/t'), slots: [] }, after: null };
    it('allows a change when the role is held on every namespace it touches', () => {
      const needs = requirementsOf(MUTATION_RULES.unregisterTool, namespacesOfEdits([rename]));
      expect(authorize('user:alice', [grant('EDITOR', 'acme')], needs)).to.equal(null);
      expect(authorize('user:alice', [grant('OWNER', '*')], needs)).to.equal(null);
    });
    it('refuses EDITOR in another namespace, naming the principal, the role and the namespace', () => {
      const needs = requirementsOf(MUTATION_RULES.unregisterTool, namespacesOfEdits([rename]));
      const refusal = authorize('user:alice', [grant('EDITOR', 'globex')], needs);
      expect(refusal).to.deep.equal({ principal: 'user:alice', role: 'EDITOR', namespaces: ['acme'], held: null });
      expect(describeRefusal(refusal!, 'unregisterTool')).to.equal(
        'user:alice may not unregisterTool here: it needs EDITOR on acme',
      );
    });
    it('refuses a VIEWER, saying what it holds', () => {
      const refusal = authorize(
        'user:alice',
        [grant('VIEWER', 'acme')],
        requirementsOf(MUTATION_RULES.unregisterTool, namespacesOfEdits([rename])),
      );
      expect(refusal?.held).to.equal('VIEWER');
    });
    it('refuses a rename into a namespace the principal does not edit', () => {
      const edit: RegistryEdit = { kind: 'PROJECT', before: entity('acme/p'), after: entity('globex/p') };
      const refusal = authorize(
        'user:alice',
        [grant('EDITOR', 'acme')],
        requirementsOf(MUTATION_RULES.updateProject, namespacesOfEdits([edit])),
      );
      expect(refusal?.namespaces).to.deep.equal(['globex']);
    });
    it('lists every namespace missing, for a forced delete that unlinks several teams', () => {
      const unlink = (project: string): RegistryEdit => ({
        kind: 'LINK',
        before: { project: entity(project), resource: resource('acme/db'), alias: null },
        after: null,
      });
      const edits: RegistryEdit[] = [
        unlink('globex/p'),
        unlink('initech/p'),
        unlink('acme/p'),
        { kind: 'RESOURCE', before: resource('acme/db'), after: null },
      ];
      const refusal = authorize(
        'user:alice',
        [grant('EDITOR', 'acme')],
        requirementsOf(MUTATION_RULES.deleteResource, namespacesOfEdits(edits)),
      );
      expect(refusal?.namespaces).to.deep.equal(['globex', 'initech']);
    });
    it('needs * for a global mutation even when it touches nothing', () => {
      const refusal = authorize(
        'user:alice',
        [grant('OWNER', 'acme')],
        requirementsOf(MUTATION_RULES.registerResourceType, namespacesOfEdits([])),
      );
      expect(refusal?.namespaces).to.deep.equal(['*']);
    });
    it('refuses granting more than is held there (an EDITOR granting OWNER; an acme OWNER granting on *)', () => {
      const grantEdit = (role: Role, namespace: string): RegistryEdit => ({
        kind: 'GRANT',
        before: null,
        after: { id: 'g', principal: 'user:bob', role, namespace, grantedBy: 'user:alice', createdAt: 'now' },
      });
      expect(
        authorize(
          'user:alice',
          [grant('EDITOR', 'acme')],
          requirementsOf(MUTATION_RULES.grantRole, namespacesOfEdits([grantEdit('OWNER', 'acme')])),
        ),
      ).to.include({ role: 'OWNER' });
      expect(
        authorize(
          'user:alice',
          [grant('OWNER', 'acme')],
          requirementsOf(MUTATION_RULES.grantRole, namespacesOfEdits([grantEdit('VIEWER', '*')])),
        ),
      ).to.deep.include({ namespaces: ['*'] });
      expect(
        authorize(
          'user:alice',
          [grant('OWNER', 'acme')],
          requirementsOf(MUTATION_RULES.grantRole, namespacesOfEdits([grantEdit('OWNER', 'acme')])),
        ),
      ).to.equal(null);
    });
    it('answers for one target the same way (what viewer.can asks)', () => {
      expect(
        authorize('user:alice', [grant('EDITOR', 'acme')], requirementsOn(MUTATION_RULES.deleteResource, ['acme'])),
      ).to.equal(null);
      expect(
        authorize('user:alice', [grant('EDITOR', 'acme')], requirementsOn(MUTATION_RULES.deleteResource, ['globex'])),
      ).to.not.equal(null);
      expect(
        authorize('user:alice', [grant('EDITOR', 'acme')], requirementsOn(MUTATION_RULES.updateResourceType, ['acme'])),
      ).to.not.equal(null);
    });
  });

  describe('canSeeChange', () => {
    it('shows every registry entry to anyone', () => {
      expect(canSeeChange([], 'RESOURCE', null)).to.equal(true);
    });
    it('shows access entries only to OWNERs of their namespace', () => {
      expect(canSeeChange([], 'GRANT', 'acme')).to.equal(false);
      expect(canSeeChange([grant('EDITOR', 'acme')], 'GRANT', 'acme')).to.equal(false);
      expect(canSeeChange([grant('OWNER', 'acme')], 'GRANT', 'acme')).to.equal(true);
      expect(canSeeChange([grant('OWNER', 'acme')], 'API_TOKEN', 'globex')).to.equal(false);
      expect(canSeeChange([grant('OWNER', '*')], 'API_TOKEN', 'globex')).to.equal(true);
    });
    it('shows entries filed under * only to OWNERs of *', () => {
      expect(canSeeChange([grant('OWNER', 'acme')], 'API_TOKEN', '*')).to.equal(false);
      expect(canSeeChange([grant('OWNER', '*')], 'API_TOKEN', '*')).to.equal(true);
    });
  });

  describe('canSeeGrant', () => {
    it('shows a grant to an OWNER of its namespace or of *, and to its holder (itself or its group)', () => {
      const hal = grant('EDITOR', 'globex', 'user:hal');
      expect(canSeeGrant([grant('OWNER', 'globex')], ['user:alice'], hal)).to.equal(true);
      expect(canSeeGrant([grant('OWNER', '*')], ['user:alice'], hal)).to.equal(true);
      expect(canSeeGrant([grant('OWNER', 'acme')], ['user:alice'], hal)).to.equal(false);
      expect(canSeeGrant([], ['user:hal'], hal)).to.equal(true);
      expect(canSeeGrant([], ['user:x', 'group:ops'], grant('VIEWER', 'acme', 'group:ops'))).to.equal(true);
    });
  });

  describe('canSeeToken', () => {
    it('shows a token to its creator and to an OWNER of a namespace it has a grant on', () => {
      expect(canSeeToken([], ['user:alice'], 'user:alice', ['globex'])).to.equal(true);
      expect(canSeeToken([grant('OWNER', 'globex')], ['user:bob'], 'user:alice', ['acme', 'globex'])).to.equal(true);
      expect(canSeeToken([grant('OWNER', 'acme')], ['user:bob'], 'user:alice', ['globex'])).to.equal(false);
      expect(canSeeToken([grant('EDITOR', 'globex')], ['user:bob'], 'user:alice', ['globex'])).to.equal(false);
    });
    it('shows a token with no grant left only to OWNERs of *', () => {
      expect(canSeeToken([grant('OWNER', 'acme')], ['user:bob'], 'user:alice', [])).to.equal(false);
      expect(canSeeToken([grant('OWNER', '*')], ['user:bob'], 'user:alice', [])).to.equal(true);
    });
  });

  describe('ownedNamespaces', () => {
    it('is null (all) for an OWNER of *, else the namespaces owned', () => {
      expect(ownedNamespaces([grant('OWNER', '*')])).to.equal(null);
      expect(ownedNamespaces([grant('OWNER', 'globex'), grant('EDITOR', 'x'), grant('OWNER', 'acme')])).to.deep.equal([
        'acme',
        'globex',
      ]);
      expect(ownedNamespaces([])).to.deep.equal([]);
    });
  });

  describe('entryNamespace', () => {
    it('files an access entry under its one namespace, or * when it spans several', () => {
      expect(entryNamespace(['acme', 'acme'])).to.equal('acme');
      expect(entryNamespace(['acme', 'globex'])).to.equal('*');
    });
  });
});
